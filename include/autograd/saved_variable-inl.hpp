#pragma once
// SavedVariable, out of line (saved_variable.hpp).
#include <sstream>

#include "autograd/autograd_meta.hpp"
#include "autograd/saved_variable.hpp"

namespace opd::autograd {

OPD_FUNC SavedVariable::SavedVariable(const Tensor& t, bool is_output, const std::shared_ptr<Node>& owner) {
  was_defined_ = t.defined();
  if (!was_defined_) return;
  saved_version_ = t.version();
  is_output_ = is_output;
  if (is_output) {
    data_ = detach(t);
    weak_grad_fn_ = owner;
    const AutogradMeta* m = autograd_meta(t);
    output_nr_ = m != nullptr ? m->output_nr : 0;
  } else {
    data_ = t;
  }
}

namespace detail {
// "torch.FloatTensor", as PyTorch names a CPU tensor's type in messages.
inline std::string torch_type_name(const Tensor& t) {
  std::string name = "torch.";
  if (!t.device().is_cpu()) name += "cuda.";
  name += to_string(t.dtype());
  return name + "Tensor";
}
}  // namespace detail

OPD_FUNC Tensor SavedVariable::unpack(const Node* saved_for) const {
  if (!was_defined_) return Tensor();
  OPD_CHECK(!released_,
            "Trying to backward through the graph a second time (or directly access saved tensors after they have "
            "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
            "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
            "if you need to access saved tensors after calling backward.");
  std::shared_ptr<Node> fn = is_output_ ? weak_grad_fn_.lock() : grad_fn(data_);
  if (data_.version() != saved_version_) {
    std::ostringstream msg;
    msg << "one of the variables needed for gradient computation has been modified by an inplace operation: ["
        << detail::torch_type_name(data_) << " " << data_.sizes() << "]";
    if (fn) msg << ", which is output " << (is_output_ ? output_nr_ : autograd_meta(data_)->output_nr) << " of "
                << fn->name() << ",";
    msg << " is at version " << data_.version() << "; expected version " << saved_version_ << " instead.";
    if (saved_for != nullptr) msg << " (saved for " << saved_for->name() << ")";
    msg << " Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
           "torch.autograd.set_detect_anomaly(True).";
    throw Error(msg.str());
  }
  if (!is_output_ || !fn) return data_;
  // An output of the node itself: the same values, as output output_nr_ of it.
  Tensor out = detach(data_);
  set_history(out, std::move(fn), output_nr_);
  return out;
}

}  // namespace opd::autograd
