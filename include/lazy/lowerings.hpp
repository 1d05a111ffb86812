#pragma once
// A backend author's lowering rules, one per operator, each reading its node
// typed (op_node.hpp): what PyTorch's LTC generates as each IR class's
// Lower() method, written here only for the operators a backend lowers
// itself (the rest it leaves to the CPU plan or to eager execution).
//
//   opd::lazy::Lowerings<Program> rules;
//   rules.on<ops::add::functional>([](opd::lazy::OpNode<ops::add::functional> n, Program& p) {
//     p.emit_add(n.get<"self">(), n.get<"other">(), n.get<"alpha">());
//   });
//   for (const Node* n : graph.nodes)
//     if (!n->is_data() && !rules.lower(*n, program)) ... // no rule for n's operator
#include <functional>
#include <unordered_map>
#include <utility>

#include "lazy/op_node.hpp"

namespace opd::lazy {

template <class Context>
class Lowerings {
 public:
  // The rule for Op's nodes (replacing an earlier one): rule(OpNode<Op>, Context&).
  template <schema::schema_holder Op, class Rule>
    requires std::is_invocable_v<const Rule&, OpNode<Op>, Context&>
  void on(Rule rule) {
    rules_[&entry_for<Op>()] = [rule = std::move(rule)](const Node& n, Context& c) { rule(*OpNode<Op>::match(n), c); };
  }

  bool has(const Node& n) const { return !n.is_data() && rules_.count(n.op) != 0; }

  // Runs the rule for n's operator; false when there is none (or n is data).
  bool lower(const Node& n, Context& c) const {
    if (n.is_data()) return false;
    const auto it = rules_.find(n.op);
    if (it == rules_.end()) return false;
    it->second(n, c);
    return true;
  }

 private:
  std::unordered_map<const OperatorEntry*, std::function<void(const Node&, Context&)>> rules_;
};

}  // namespace opd::lazy
