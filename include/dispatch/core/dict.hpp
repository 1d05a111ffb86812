// opd::Dict<K, V>: the C++ type of the schema type Dict(K, V), an
// insertion-ordered hash map with reference semantics, as c10::Dict.
//
// Why this shape:
//  * copying a Dict shares its entries (copy() makes a separate one), so
//    boxing a Dict onto a Stack (an IValue tagged GenericDict) and unboxing
//    it for a kernel cost a reference count, never a copy of the entries;
//    a change made through one copy shows in every other, boxed or typed;
//  * the entries are IValues (detail::DictImpl, in ivalue.hpp) converted to
//    K and V on access: at() and iteration give keys and values by value (a
//    Tensor is a reference-count bump, a std::string a copy);
//  * a boxed value becomes a Dict<K, V> only when every key and value has K's
//    and V's kind: checked once, when it is unboxed, so that a wrong one is a
//    TypeError the boxed call reports with the operator and argument, never
//    a failure later inside the kernel.
// Keys are std::string, int64_t, double, std::complex<double>, bool or Tensor
// (by identity), the key types c10 allows; IValue where the schema's key is a
// type variable.
// Inserting may move entries: iterators are invalidated by insert and erase.
// Like the std containers, a Dict is not synchronised.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

#include "dispatch/core/error.hpp"
#include "dispatch/core/intrusive_ptr.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd {

template <class K, class V>
class Dict;

namespace detail {

template <class T>
inline constexpr bool is_dict_v = false;
template <class K, class V>
inline constexpr bool is_dict_v<Dict<K, V>> = true;

template <class K>
inline constexpr bool is_dict_key_v = std::is_same_v<K, std::string> || std::is_same_v<K, std::int64_t> ||
                                      std::is_same_v<K, double> || std::is_same_v<K, std::complex<double>> ||
                                      std::is_same_v<K, bool> ||
                                      std::is_same_v<K, Tensor> || std::is_same_v<K, IValue>;

// The schema spelling of a Dict's key or value type, for messages.
template <class T>
std::string dict_type_spelling() {
  if constexpr (std::is_same_v<T, Tensor>) return "Tensor";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int";
  else if constexpr (std::is_same_v<T, double>) return "float";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, std::complex<double>>) return "complex";
  else if constexpr (std::is_same_v<T, std::string>) return "str";
  else if constexpr (std::is_same_v<T, IValue>) return "Any";
  else if constexpr (is_optional_v<T>) return dict_type_spelling<typename T::value_type>() + "?";
  else if constexpr (is_vector_v<T>) return dict_type_spelling<typename T::value_type>() + "[]";
  else if constexpr (is_dict_v<T>)
    return "Dict(" + dict_type_spelling<typename T::key_type>() + ", " +
           dict_type_spelling<typename T::mapped_type>() + ")";
  else return "its C++ value type";
}

// Does v hold a value IValue::to<T>() accepts? Exact tag checks for the
// common kinds; other types are tried (the slow path of a cold check).
template <class T>
bool ivalue_holds(const IValue& v) {
  if constexpr (std::is_same_v<T, IValue>) return true;
  else if constexpr (std::is_same_v<T, Tensor>) return v.is_tensor();
  else if constexpr (std::is_same_v<T, std::string>) return v.is_string();
  else if constexpr (std::is_same_v<T, std::int64_t>) return v.is_int();
  else if constexpr (std::is_same_v<T, double>) return v.is_double();
  else if constexpr (std::is_same_v<T, bool>) return v.is_bool();
  else if constexpr (is_optional_v<T>) return v.is_none() || ivalue_holds<typename T::value_type>(v);
  else if constexpr (is_dict_v<T>) return T::holds(v);
  else {
    try {
      (void)v.to<T>();
      return true;
    } catch (const Error&) {
      return false;
    }
  }
}

// A value as the IValue a Dict stores (std::array<bool, N>, bool[N], as a list).
template <class T>
IValue dict_box(const T& v) {
  if constexpr (requires { std::tuple_size<T>::value; typename T::value_type; } && !is_vector_v<T>)
    return IValue(std::vector<typename T::value_type>(v.begin(), v.end()));
  else
    return IValue(v);
}

}  // namespace detail

template <class K, class V>
class Dict {
  static_assert(detail::is_dict_key_v<K>,
                "opd::Dict<K, V>: K must be std::string, int64_t, double, std::complex<double>, bool, opd::Tensor or "
                "opd::IValue (the key types of the schema type Dict(K, V))");
  using Entry = detail::DictImpl::Entry;

 public:
  using key_type = K;
  using mapped_type = V;
  using size_type = std::size_t;

  // One entry seen through an iterator: key() and value() convert on access.
  class entry_ref {
   public:
    explicit entry_ref(const Entry* e) noexcept : e_(e) {}
    K key() const { return e_->first.template to<K>(); }
    V value() const { return e_->second.template to<V>(); }

   private:
    const Entry* e_;
  };
  // Walks the entries in insertion order.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = entry_ref;
    using difference_type = std::ptrdiff_t;
    using reference = entry_ref;
    using pointer = void;

    iterator() noexcept = default;
    explicit iterator(const Entry* p) noexcept : p_(p) {}
    entry_ref operator*() const noexcept { return entry_ref(p_); }
    iterator& operator++() noexcept {
      ++p_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator old = *this;
      ++p_;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.p_ == b.p_; }

   private:
    const Entry* p_ = nullptr;
  };

  Dict() : impl_(make_intrusive<detail::DictImpl>()) {}
  // Copies share the entries; so does a move (a moved-from Dict stays usable
  // and still refers to them: impl_ is never null).
  Dict(const Dict&) noexcept = default;
  Dict(Dict&& other) noexcept : impl_(other.impl_) {}
  Dict& operator=(const Dict&) noexcept = default;
  Dict& operator=(Dict&& other) noexcept {
    impl_ = other.impl_;
    return *this;
  }
  ~Dict() = default;
  // Entries in order; a repeated key keeps its first value (as insert).
  Dict(std::initializer_list<std::pair<K, V>> entries) : Dict() {
    for (const auto& [key, value] : entries) insert(key, value);
  }

  size_type size() const noexcept { return impl_->entries.size(); }
  bool empty() const noexcept { return impl_->entries.empty(); }
  bool contains(const K& key) const { return impl_->find(IValue(key)) != size(); }
  // The value stored under key; opd::IndexError when there is none.
  V at(const K& key) const {
    const std::size_t i = impl_->find(IValue(key));
    if (i == size()) [[unlikely]]
      throw IndexError(detail::str_cat("Dict: no entry for key ", IValue(key)));
    return impl_->entries[i].second.template to<V>();
  }
  // The entry of key, or end().
  iterator find(const K& key) const { return iterator(impl_->entries.data() + impl_->find(IValue(key))); }

  // Adds (key, value) unless key is present; returns whether it did.
  bool insert(const K& key, const V& value) {
    return impl_->insert(IValue(key), detail::dict_box(value), false).second;
  }
  // Adds (key, value), or replaces the value of a present key (which keeps
  // its place in the order); returns whether key is new.
  bool insert_or_assign(const K& key, const V& value) {
    return impl_->insert(IValue(key), detail::dict_box(value), true).second;
  }
  // Removes key's entry; returns the number removed (0 or 1).
  size_type erase(const K& key) { return impl_->erase(IValue(key)); }
  void clear() noexcept { impl_->clear(); }

  iterator begin() const noexcept { return iterator(impl_->entries.data()); }
  iterator end() const noexcept { return iterator(impl_->entries.data() + impl_->entries.size()); }

  // A Dict of its own with the same entries (the values themselves are
  // shared as IValue copies share them: a Tensor by reference).
  Dict copy() const {
    auto fresh = make_intrusive<detail::DictImpl>(*impl_);
    return Dict(std::move(fresh));
  }
  // Whether both share one set of entries.
  bool is(const Dict& other) const noexcept { return impl_ == other.impl_; }

  // The same entries, in any order (as c10::Dict's operator==).
  friend bool operator==(const Dict& a, const Dict& b) { return a.to_ivalue() == b.to_ivalue(); }

  // ---- boxing -----------------------------------------------------------------
  // A GenericDict IValue sharing these entries.
  IValue to_ivalue() const noexcept { return IValue::generic_dict(impl_.get()); }
  // Whether v is a GenericDict whose keys and values are all K's and V's kinds.
  static bool holds(const IValue& v) {
    if (!v.is_generic_dict()) return false;
    for (const auto& [key, value] : v.to_dict_impl().entries)
      if (!detail::ivalue_holds<K>(key) || !detail::ivalue_holds<V>(value)) return false;
    return true;
  }
  // The Dict v holds, shared; opd::TypeError naming the first entry that
  // does not fit (or the tag, when v is no dict).
  static Dict from_ivalue(const IValue& v) {
    detail::DictImpl& impl = v.to_dict_impl();
    for (std::size_t i = 0; i < impl.entries.size(); ++i) {
      const auto& [key, value] = impl.entries[i];
      if (!detail::ivalue_holds<K>(key) || !detail::ivalue_holds<V>(value)) [[unlikely]]
        fail_entry(i, key, value);
    }
    return Dict(intrusive_ptr<detail::DictImpl>(&impl));
  }

 private:
  explicit Dict(intrusive_ptr<detail::DictImpl> impl) noexcept : impl_(std::move(impl)) {}

  [[noreturn, gnu::cold, gnu::noinline]] static void fail_entry(std::size_t i, const IValue& key, const IValue& value) {
    const bool key_fits = detail::ivalue_holds<K>(key);
    throw TypeError(detail::str_cat("Expected Dict(", detail::dict_type_spelling<K>(), ", ",
                                    detail::dict_type_spelling<V>(), ") but entry ", i, " has ",
                                    key_fits ? "a value of kind " : "a key of kind ",
                                    key_fits ? value.tag_kind() : key.tag_kind()));
  }

  intrusive_ptr<detail::DictImpl> impl_;  // never null
};

// IValue(dict) and iv.to<Dict<K, V>>() (and lists / optionals of Dicts).
template <class K, class V>
struct ivalue_converter<Dict<K, V>> {
  static IValue to_ivalue(const Dict<K, V>& d) { return d.to_ivalue(); }
  static Dict<K, V> from_ivalue(const IValue& v) { return Dict<K, V>::from_ivalue(v); }
};

}  // namespace opd
