// IValue: a tagged union holding any value an operator schema can mention,
// and Stack, the vector of IValues boxed kernels read and write.
//
// Why this shape (16 bytes: an 8-byte payload + a 1-byte tag):
//  * boxed calls push/pop IValues constantly, so moving one must be a couple
//    of word copies, and copying a Tensor or list must be a refcount bump;
//  * numbers and Device live inline; everything bigger (strings, lists,
//    tuples, complex, custom objects) lives in an intrusive refcounted holder
//    behind the one pointer slot; a Tensor is stored as a Tensor (also one
//    pointer) so to_tensor() can hand out a const reference.
//  * ScalarType / Layout / MemoryFormat travel as Int exactly as in PyTorch,
//    with checked typed accessors on top.
// Lists are shared like PyTorch's (copying an IValue shares the list); this
// library never mutates a list in place, so sharing is invisible to users.
// A GenericDict is shared the same way, and opd::Dict (dict.hpp) mutates it
// in place: as in c10, every copy of a Dict, boxed or typed, sees the change.
//
// A Tensor can also be *borrowed*: `stack.emplace_back(opd::borrow, t)` puts
// t on a stack without touching its reference count (an atomic increment
// and decrement, the largest cost of a boxed call that owns its arguments).
// The caller promises that t outlives the IValue. A borrowed value never
// escapes as a borrow: copying or moving it, taking the Tensor out of it
// (std::move(v).to_tensor()) and binding it to a kernel's mutable Tensor&
// all give an owning reference; only const access reads it as it is.
#pragma once

#include <algorithm>

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/generator.hpp"
#include "dispatch/core/intrusive_ptr.hpp"
#include "dispatch/core/layout.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/storage.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd {

// The tag of IValue's borrowing constructor: IValue(opd::borrow, tensor).
struct borrow_t {
  explicit constexpr borrow_t() = default;
};
inline constexpr borrow_t borrow{};

enum class IValueTag : uint8_t {
  None,
  Tensor,
  Double,
  ComplexDouble,
  Int,
  Bool,
  String,
  Device,
  Generator,
  Storage,
  TensorList,
  OptionalTensorList,
  IntList,
  DoubleList,
  BoolList,
  StringList,
  GenericList,
  Tuple,
  GenericDict,
  Object,
};

constexpr std::string_view tag_name(IValueTag tag) noexcept {
  switch (tag) {
    case IValueTag::None: return "None";
    case IValueTag::Tensor: return "Tensor";
    case IValueTag::Double: return "Double";
    case IValueTag::ComplexDouble: return "ComplexDouble";
    case IValueTag::Int: return "Int";
    case IValueTag::Bool: return "Bool";
    case IValueTag::String: return "String";
    case IValueTag::Device: return "Device";
    case IValueTag::Generator: return "Generator";
    case IValueTag::Storage: return "Storage";
    case IValueTag::TensorList: return "TensorList";
    case IValueTag::OptionalTensorList: return "OptionalTensorList";
    case IValueTag::IntList: return "IntList";
    case IValueTag::DoubleList: return "DoubleList";
    case IValueTag::BoolList: return "BoolList";
    case IValueTag::StringList: return "StringList";
    case IValueTag::GenericList: return "GenericList";
    case IValueTag::Tuple: return "Tuple";
    case IValueTag::GenericDict: return "GenericDict";
    case IValueTag::Object: return "Object";
  }
  return "InvalidTag";
}

inline std::ostream& operator<<(std::ostream& os, IValueTag tag) { return os << tag_name(tag); }

// An instance of a user-registered class ("custom class" / torchbind
// object): an opaque shared pointer plus the name it was registered under.
struct CustomObject {
  std::shared_ptr<void> ptr;
  std::string type_name;

  // The object as T, after checking it was registered as `expected_name`.
  template <class T>
  std::shared_ptr<T> as(std::string_view expected_name) const {
    OPD_CHECK_TYPE(type_name == expected_name, "Expected object of type ", expected_name, " but got ", type_name);
    return std::static_pointer_cast<T>(ptr);
  }

  // Identity: the same object under the same name.
  friend bool operator==(const CustomObject& a, const CustomObject& b) noexcept {
    return a.ptr == b.ptr && a.type_name == b.type_name;
  }
};

class IValue;

// Extension point for types this header does not know (e.g. a placeholder
// Dimname or QScheme elsewhere in the project): specialise
//
//   template <> struct opd::ivalue_converter<MyType> {
//     static IValue to_ivalue(const MyType&);
//     static MyType from_ivalue(const IValue&);
//   };
//
// and IValue(MyType) / iv.to<MyType>() (and lists/optionals of it) work.
template <class T>
struct ivalue_converter;

template <class T>
concept has_ivalue_converter = requires(const T& v, const IValue& iv) {
  { ivalue_converter<T>::to_ivalue(v) } -> std::same_as<IValue>;
  { ivalue_converter<T>::from_ivalue(iv) } -> std::same_as<T>;
};

namespace detail {

struct StringHolder final : intrusive_target {
  explicit StringHolder(std::string v) : value(std::move(v)) {}
  std::string value;
};
struct ComplexHolder final : intrusive_target {
  explicit ComplexHolder(std::complex<double> v) : value(v) {}
  std::complex<double> value;
};
struct ObjectHolder final : intrusive_target {
  explicit ObjectHolder(CustomObject v) : value(std::move(v)) {}
  CustomObject value;
};
// The entries of a Dict (defined below, once IValue is complete).
struct DictImpl;
// Holds the elements of every list kind, and of tuples (ListHolder<IValue>).
template <class T>
struct ListHolder final : intrusive_target {
  explicit ListHolder(std::vector<T> v) : items(std::move(v)) {}
  std::vector<T> items;
};

template <class T>
inline constexpr bool is_vector_v = false;
template <class T, class A>
inline constexpr bool is_vector_v<std::vector<T, A>> = true;
template <class T>
inline constexpr bool is_optional_v = false;
template <class T>
inline constexpr bool is_optional_v<std::optional<T>> = true;
template <class T>
inline constexpr bool is_tuple_v = false;
template <class... Ts>
inline constexpr bool is_tuple_v<std::tuple<Ts...>> = true;
template <class T>
inline constexpr bool is_array_ref_v = false;
template <class T>
inline constexpr bool is_array_ref_v<ArrayRef<T>> = true;

// Element type -> the IValue tag of a list of it (None if it has no
// dedicated list kind).
template <class E>
constexpr IValueTag list_tag_for() noexcept {
  if constexpr (std::is_same_v<E, Tensor>) return IValueTag::TensorList;
  else if constexpr (std::is_same_v<E, std::optional<Tensor>>) return IValueTag::OptionalTensorList;
  else if constexpr (std::is_same_v<E, int64_t>) return IValueTag::IntList;
  else if constexpr (std::is_same_v<E, double>) return IValueTag::DoubleList;
  else if constexpr (std::is_same_v<E, bool>) return IValueTag::BoolList;
  else if constexpr (std::is_same_v<E, std::string>) return IValueTag::StringList;
  else if constexpr (std::is_same_v<E, IValue>) return IValueTag::GenericList;
  else return IValueTag::None;
}

template <class T, class Self>
T ivalue_to(Self&& self);

}  // namespace detail

class IValue {
 public:
  using Tag = IValueTag;

  // ---- construction -------------------------------------------------------
  IValue() noexcept = default;
  IValue(std::nullopt_t) noexcept {}
  IValue(std::nullptr_t) noexcept {}

  IValue(const Tensor& t) noexcept : tag_(Tag::Tensor) { new (&payload_.as_tensor) Tensor(t); }
  IValue(Tensor&& t) noexcept : tag_(Tag::Tensor) { new (&payload_.as_tensor) Tensor(std::move(t)); }
  // Refers to t without owning a reference (see the top of this file): t
  // must outlive this IValue. Construct it in place (stack.emplace_back(
  // opd::borrow, t)); moving it into place would take a reference.
  IValue(borrow_t, const Tensor& t) noexcept : tag_(borrowed_tensor_tag) {
    new (&payload_.as_tensor) Tensor(intrusive_ptr<TensorImpl>(t.unsafe_get_impl(), adopt));
  }

  template <class T>
    requires std::same_as<T, bool>
  IValue(T v) noexcept : tag_(Tag::Bool) {
    payload_.u.as_bool = v;
  }
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  IValue(T v) : tag_(Tag::Int) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
      OPD_CHECK_VALUE(v <= static_cast<T>(std::numeric_limits<int64_t>::max()), "IValue: unsigned value ", v,
                      " does not fit in int64");
    }
    payload_.u.as_int = static_cast<int64_t>(v);
  }
  template <std::floating_point T>
  IValue(T v) noexcept : tag_(Tag::Double) {
    payload_.u.as_double = static_cast<double>(v);
  }
  template <class T>
  IValue(std::complex<T> v) : IValue(Tag::ComplexDouble, new detail::ComplexHolder(std::complex<double>(v))) {}

  IValue(std::string v) : IValue(Tag::String, new detail::StringHolder(std::move(v))) {}
  IValue(std::string_view v) : IValue(std::string(v)) {}
  IValue(const char* v) : IValue(std::string(v)) {}

  IValue(Device d) noexcept : tag_(Tag::Device) {
    payload_.u.as_device = (static_cast<uint32_t>(static_cast<uint16_t>(d.index())) << 8) |
                           static_cast<uint32_t>(d.type());
  }
  // Enums travel as Int, as in PyTorch.
  IValue(ScalarType v) noexcept : IValue(static_cast<int64_t>(v)) {}
  IValue(Layout v) noexcept : IValue(static_cast<int64_t>(v)) {}
  IValue(MemoryFormat v) noexcept : IValue(static_cast<int64_t>(v)) {}

  // Undefined handles are kept (to_generator() gives an undefined one back).
  IValue(const Generator& g) noexcept : IValue(Tag::Generator, g.unsafe_get_impl()) {}
  IValue(const Storage& s) noexcept : IValue(Tag::Storage, s.unsafe_get_impl()) {}

  // Int, Double, Bool or ComplexDouble according to the Scalar's kind.
  // Numbers are stored in place (no temporary and move-assignment: this runs
  // for every Scalar argument of a typed call that reaches a boxed kernel).
  IValue(const Scalar& s) : IValue() {
    switch (s.kind()) {
      case Scalar::Kind::Bool:
        tag_ = Tag::Bool;
        payload_.u.as_bool = s.to_bool();
        break;
      case Scalar::Kind::Int:
        tag_ = Tag::Int;
        payload_.u.as_int = s.to_long();
        break;
      case Scalar::Kind::Double:
        tag_ = Tag::Double;
        payload_.u.as_double = s.to_double();
        break;
      case Scalar::Kind::ComplexDouble: *this = IValue(s.to_complex_double()); break;
    }
  }

  IValue(std::vector<Tensor> v) : IValue(Tag::TensorList, new detail::ListHolder<Tensor>(std::move(v))) {}
  IValue(std::vector<std::optional<Tensor>> v)
      : IValue(Tag::OptionalTensorList, new detail::ListHolder<std::optional<Tensor>>(std::move(v))) {}
  IValue(std::vector<int64_t> v) : IValue(Tag::IntList, new detail::ListHolder<int64_t>(std::move(v))) {}
  IValue(IntArrayRef v) : IValue(v.vec()) {}
  IValue(std::vector<double> v) : IValue(Tag::DoubleList, new detail::ListHolder<double>(std::move(v))) {}
  IValue(std::vector<bool> v) : IValue(Tag::BoolList, new detail::ListHolder<bool>(std::move(v))) {}
  IValue(std::vector<std::string> v) : IValue(Tag::StringList, new detail::ListHolder<std::string>(std::move(v))) {}
  // A generic list (use IValue::tuple for a tuple).
  IValue(std::vector<IValue> v);
  // Any other vector: integers become an IntList, anything else a
  // GenericList of converted elements (e.g. vector<vector<int64_t>>).
  template <class T>
    requires(!std::is_same_v<T, Tensor> && !std::is_same_v<T, std::optional<Tensor>> && !std::is_same_v<T, int64_t> &&
             !std::is_same_v<T, double> && !std::is_same_v<T, bool> && !std::is_same_v<T, std::string> &&
             !std::is_same_v<T, IValue>)
  IValue(const std::vector<T>& v);

  template <class T>
  IValue(std::optional<T> v) : IValue() {
    if (v) *this = IValue(std::move(*v));
  }

  template <class... Ts>
  IValue(std::tuple<Ts...> t);

  IValue(CustomObject obj) : IValue(Tag::Object, new detail::ObjectHolder(std::move(obj))) {}

  // Types with an ivalue_converter specialisation.
  template <class T>
    requires has_ivalue_converter<T>
  IValue(const T& v) : IValue(ivalue_converter<T>::to_ivalue(v)) {}

  static IValue tuple(std::vector<IValue> elements);
  static IValue generic_list(std::vector<IValue> elements);
  // A GenericDict sharing `impl` (a new reference; see dict.hpp's opd::Dict).
  static IValue generic_dict(detail::DictImpl* impl) noexcept;
  template <class T>
  static IValue make_object(std::shared_ptr<T> ptr, std::string type_name) {
    return IValue(CustomObject{std::static_pointer_cast<void>(std::move(ptr)), std::move(type_name)});
  }

  // ---- copy / move: refcount bumps and word copies -----------------------------
  IValue(const IValue& other) noexcept : tag_(other.tag()) {  // a borrowed Tensor's copy owns
    if (tag_ == Tag::Tensor) {
      new (&payload_.as_tensor) Tensor(other.payload_.as_tensor);
    } else {
      payload_.u = other.payload_.u;
      if (holds_ptr(tag_) && payload_.u.as_ptr) detail::incref(payload_.u.as_ptr);
    }
  }
  IValue(IValue&& other) noexcept { move_from(other); }
  IValue& operator=(const IValue& other) noexcept {
    IValue copy(other);
    destroy();
    move_from(copy);
    return *this;
  }
  IValue& operator=(IValue&& other) noexcept {
    // Move out first: `other` may live inside a list this IValue owns.
    IValue taken(std::move(other));
    destroy();
    move_from(taken);
    return *this;
  }
  // Inline, and nothing to do for the tags that own nothing (None, numbers,
  // Device, a moved-from value): the common case on a Stack.
  [[gnu::always_inline]] ~IValue() {
    if (tag_ == Tag::Tensor)  // not a borrowed one: its tag differs
      payload_.as_tensor.~Tensor();
    else if (holds_ptr(tag_)) [[unlikely]]
      release_holder();
  }

  void swap(IValue& other) noexcept {
    IValue tmp(std::move(other));
    other = std::move(*this);
    *this = std::move(tmp);
  }

  // ---- queries --------------------------------------------------------------
  Tag tag() const noexcept { return static_cast<Tag>(static_cast<std::uint8_t>(tag_) & ~borrowed_bit); }
  std::string_view tag_kind() const noexcept { return opd::tag_name(tag()); }

  bool is_none() const noexcept { return tag_ == Tag::None; }
  bool is_tensor() const noexcept { return tag() == Tag::Tensor; }
  // A Tensor held without a reference of its own (IValue(opd::borrow, t)).
  bool is_borrowed() const noexcept { return tag_ == borrowed_tensor_tag; }
  // Takes a reference of its own if borrowed; afterwards the referent may go.
  void make_owned() noexcept {
    if (tag_ == borrowed_tensor_tag) [[unlikely]]
      take_reference();
  }
  bool is_double() const noexcept { return tag_ == Tag::Double; }
  bool is_complex_double() const noexcept { return tag_ == Tag::ComplexDouble; }
  bool is_int() const noexcept { return tag_ == Tag::Int; }
  bool is_bool() const noexcept { return tag_ == Tag::Bool; }
  bool is_string() const noexcept { return tag_ == Tag::String; }
  bool is_device() const noexcept { return tag_ == Tag::Device; }
  bool is_generator() const noexcept { return tag_ == Tag::Generator; }
  bool is_storage() const noexcept { return tag_ == Tag::Storage; }
  bool is_tensor_list() const noexcept { return tag_ == Tag::TensorList; }
  bool is_optional_tensor_list() const noexcept { return tag_ == Tag::OptionalTensorList; }
  bool is_int_list() const noexcept { return tag_ == Tag::IntList; }
  bool is_double_list() const noexcept { return tag_ == Tag::DoubleList; }
  bool is_bool_list() const noexcept { return tag_ == Tag::BoolList; }
  bool is_string_list() const noexcept { return tag_ == Tag::StringList; }
  bool is_generic_list() const noexcept { return tag_ == Tag::GenericList; }
  bool is_tuple() const noexcept { return tag_ == Tag::Tuple; }
  bool is_generic_dict() const noexcept { return tag_ == Tag::GenericDict; }
  bool is_object() const noexcept { return tag_ == Tag::Object; }
  // Any of the list kinds (not tuples).
  bool is_list() const noexcept { return tag_ >= Tag::TensorList && tag_ <= Tag::GenericList; }
  // Int, Double, Bool or ComplexDouble: convertible with to_scalar().
  bool is_scalar() const noexcept {
    return tag_ == Tag::Int || tag_ == Tag::Double || tag_ == Tag::Bool || tag_ == Tag::ComplexDouble;
  }
  // Holds a reference to a heap object (defined tensors included).
  bool is_ptr_type() const noexcept {
    if (is_tensor()) return payload_.as_tensor.defined();
    return holds_ptr(tag_) && payload_.u.as_ptr != nullptr;
  }
  // Shares its heap object with `other` (tensors: shares storage).
  bool is_alias_of(const IValue& other) const noexcept {
    if (!is_ptr_type() || !other.is_ptr_type() || tag() != other.tag()) return false;
    if (is_tensor()) return payload_.as_tensor.is_alias_of(other.payload_.as_tensor);
    return payload_.u.as_ptr == other.payload_.u.as_ptr;
  }

  // ---- accessors: throw opd::TypeError "Expected X but got Y" on mismatch ------
  const Tensor& to_tensor() const& {
    expect(Tag::Tensor);
    return payload_.as_tensor;
  }
  Tensor to_tensor() && {
    expect(Tag::Tensor);
    make_owned();
    Tensor t = std::move(payload_.as_tensor);
    destroy();
    return t;
  }
  bool to_bool() const {
    expect(Tag::Bool);
    return payload_.u.as_bool;
  }
  int64_t to_int() const {
    expect(Tag::Int);
    return payload_.u.as_int;
  }
  double to_double() const {
    expect(Tag::Double);
    return payload_.u.as_double;
  }
  std::complex<double> to_complex_double() const {
    expect(Tag::ComplexDouble);
    return static_cast<const detail::ComplexHolder*>(payload_.u.as_ptr)->value;
  }
  const std::string& to_string_ref() const& {
    expect(Tag::String);
    return static_cast<const detail::StringHolder*>(payload_.u.as_ptr)->value;
  }
  std::string to_string_ref() && { return take_string(); }
  std::string_view to_string_view() const& { return to_string_ref(); }
  Device to_device() const {
    expect(Tag::Device);
    return Device(static_cast<DeviceType>(payload_.u.as_device & 0xffu),
                  static_cast<DeviceIndex>(static_cast<uint16_t>(payload_.u.as_device >> 8)));
  }
  ScalarType to_scalar_type() const {
    const int64_t v = to_int();
    OPD_CHECK_VALUE(is_valid_scalar_type(v), "Int value ", v, " is not a valid ScalarType");
    return static_cast<ScalarType>(v);
  }
  Layout to_layout() const {
    const int64_t v = to_int();
    OPD_CHECK_VALUE(is_valid_layout(v), "Int value ", v, " is not a valid Layout");
    return static_cast<Layout>(v);
  }
  MemoryFormat to_memory_format() const {
    const int64_t v = to_int();
    OPD_CHECK_VALUE(is_valid_memory_format(v), "Int value ", v, " is not a valid MemoryFormat");
    return static_cast<MemoryFormat>(v);
  }
  Generator to_generator() const {
    expect(Tag::Generator);
    return Generator(intrusive_ptr<GeneratorImpl>(static_cast<GeneratorImpl*>(payload_.u.as_ptr)));
  }
  Storage to_storage() const {
    expect(Tag::Storage);
    return Storage(intrusive_ptr<StorageImpl>(static_cast<StorageImpl*>(payload_.u.as_ptr)));
  }
  Scalar to_scalar() const {
    switch (tag()) {
      case Tag::Int: return Scalar(payload_.u.as_int);
      case Tag::Double: return Scalar(payload_.u.as_double);
      case Tag::Bool: return Scalar(payload_.u.as_bool);
      case Tag::ComplexDouble: return Scalar(to_complex_double());
      default: break;
    }
    fail_expected("Scalar");
  }
  const CustomObject& to_object() const {
    expect(Tag::Object);
    return static_cast<const detail::ObjectHolder*>(payload_.u.as_ptr)->value;
  }
  // The object as T, checking its registered name.
  template <class T>
  std::shared_ptr<T> to_object(std::string_view expected_name) const {
    return to_object().as<T>(expected_name);
  }

  // Lists: const& access borrows; && access moves the elements out when this
  // IValue is the only owner (copies otherwise) and leaves it None.
  const std::vector<Tensor>& to_tensor_list() const& { return list_ref<Tensor>(); }
  std::vector<Tensor> to_tensor_list() && { return take_list<Tensor>(); }
  const std::vector<std::optional<Tensor>>& to_optional_tensor_list() const& {
    return list_ref<std::optional<Tensor>>();
  }
  std::vector<std::optional<Tensor>> to_optional_tensor_list() && { return take_list<std::optional<Tensor>>(); }
  const std::vector<int64_t>& to_int_list() const& { return list_ref<int64_t>(); }
  std::vector<int64_t> to_int_list() && { return take_list<int64_t>(); }
  const std::vector<double>& to_double_list() const& { return list_ref<double>(); }
  std::vector<double> to_double_list() && { return take_list<double>(); }
  const std::vector<bool>& to_bool_list() const& { return list_ref<bool>(); }
  std::vector<bool> to_bool_list() && { return take_list<bool>(); }
  const std::vector<std::string>& to_string_list() const& { return list_ref<std::string>(); }
  std::vector<std::string> to_string_list() && { return take_list<std::string>(); }
  const std::vector<IValue>& to_generic_list() const&;
  std::vector<IValue> to_generic_list() &&;
  const std::vector<IValue>& to_tuple() const&;
  std::vector<IValue> to_tuple() &&;
  // The entries of a GenericDict, shared (opd::Dict<K, V> wraps them typed).
  detail::DictImpl& to_dict_impl() const;

  // Generic conversion to the C++ type of a schema argument: Tensor, bool,
  // int64_t (other integer types range-checked from Int), double (float
  // narrowed), std::complex<double>, std::string, std::string_view (lvalue
  // only), Scalar, Device, ScalarType, Layout, MemoryFormat, Generator,
  // Storage, CustomObject, IValue, std::nullopt_t (None only),
  // std::optional<T>, std::vector<T> (any list kind; GenericList converts
  // element-wise), ArrayRef<T> (lvalue only, borrows a list),
  // std::tuple<Ts...>, and any T with an ivalue_converter.
  template <class T>
  T to() const& {
    return detail::ivalue_to<T>(*this);
  }
  template <class T>
  T to() && {
    return detail::ivalue_to<T>(std::move(*this));
  }

  // Element type E of a list kind; used by to<>() and by boxing code.
  template <class E>
  const std::vector<E>& list_ref() const& {
    constexpr Tag expected = detail::list_tag_for<E>();
    static_assert(expected != Tag::None, "list_ref<E>: no list kind holds E");
    expect(expected);
    return static_cast<const detail::ListHolder<E>*>(payload_.u.as_ptr)->items;
  }
  template <class E>
  std::vector<E> take_list() {
    constexpr Tag expected = detail::list_tag_for<E>();
    static_assert(expected != Tag::None, "take_list<E>: no list kind holds E");
    expect(expected);
    return take_items<E>();
  }

 private:
  // Takes a new reference on `holder` (a fresh holder goes from 0 to 1).
  IValue(Tag tag, intrusive_target* holder) noexcept : tag_(tag) {
    payload_.u.as_ptr = holder;
    if (holder) detail::incref(holder);
  }
  // A borrowed Tensor is stored under a tag of its own, which no check for
  // Tag::Tensor matches: the destructor and destroy() pass it by for free.
  // tag() hides the bit.
  static constexpr std::uint8_t borrowed_bit = 0x40;
  static_assert(static_cast<std::uint8_t>(Tag::Object) < borrowed_bit, "the borrowed bit must be free");
  static constexpr Tag borrowed_tensor_tag = static_cast<Tag>(static_cast<std::uint8_t>(Tag::Tensor) | borrowed_bit);

  // Tags whose payload is a counted holder: ComplexDouble, String, Generator through Object.
  static constexpr std::uint64_t holder_tags =
      (std::uint64_t{1} << static_cast<unsigned>(Tag::ComplexDouble)) |
      (std::uint64_t{1} << static_cast<unsigned>(Tag::String)) |
      ((std::uint64_t{2} << static_cast<unsigned>(Tag::Object)) - (std::uint64_t{1} << static_cast<unsigned>(Tag::Generator)));
  static constexpr bool holds_ptr(Tag t) noexcept { return (holder_tags >> (static_cast<unsigned>(t) & 63u)) & 1u; }

  void expect(Tag expected) const {
    if (tag() != expected) fail_expected(expected);
  }
  [[noreturn]] OPD_API void fail_expected(Tag expected) const;  // ivalue-inl.hpp
  [[noreturn]] OPD_API void fail_expected(std::string_view expected) const;  // ivalue-inl.hpp

  // make_owned's work, out of line: moves and the destructor stay small
  // enough to inline everywhere.
  [[gnu::noinline]] void take_reference() noexcept {
    tag_ = Tag::Tensor;
    if (const TensorImpl* impl = payload_.as_tensor.unsafe_get_impl()) detail::incref(impl);
  }
  // A borrowed value arrives owned: a move is how values leave a stack.
  void move_from(IValue& other) noexcept {
    tag_ = other.tag_;
    if (tag_ == Tag::Tensor) {
      new (&payload_.as_tensor) Tensor(std::move(other.payload_.as_tensor));
      other.payload_.as_tensor.~Tensor();
    } else if (tag_ == borrowed_tensor_tag) [[unlikely]] {
      tag_ = Tag::Tensor;
      new (&payload_.as_tensor) Tensor(other.payload_.as_tensor);  // a counted copy
    } else {
      payload_.u = other.payload_.u;
    }
    other.tag_ = Tag::None;
    other.payload_.u.as_int = 0;
  }
  // The reference of a holder tag (string, list, ...): out of line, off the
  // Tensor / number path.
  [[gnu::noinline]] void release_holder() noexcept {
    if (payload_.u.as_ptr) detail::decref(payload_.u.as_ptr);
  }
  // Drops the reference this value owns, if any, and leaves None behind.
  void destroy() noexcept {
    if (tag_ == Tag::Tensor)
      payload_.as_tensor.~Tensor();
    else if (holds_ptr(tag_))
      release_holder();
    tag_ = Tag::None;
    payload_.u.as_int = 0;
  }

  std::string take_string() {
    expect(Tag::String);
    auto* holder = static_cast<detail::StringHolder*>(payload_.u.as_ptr);
    std::string out = holder->use_count() == 1 ? std::move(holder->value) : holder->value;
    destroy();
    return out;
  }
  template <class E>
  std::vector<E> take_items() {
    auto* holder = static_cast<detail::ListHolder<E>*>(payload_.u.as_ptr);
    std::vector<E> out = holder->use_count() == 1 ? std::move(holder->items) : holder->items;
    destroy();
    return out;
  }

  union Payload {
    union Trivial {
      int64_t as_int;
      double as_double;
      bool as_bool;
      uint32_t as_device;  // type | (uint16 index << 8)
      intrusive_target* as_ptr;
    } u;
    Tensor as_tensor;

    Payload() noexcept : u{0} {}
    ~Payload() {}
  } payload_;
  Tag tag_ = Tag::None;  // borrowed_tensor_tag for a borrowed Tensor
};

static_assert(sizeof(IValue) == 16, "IValue should be two words");

// ---- out-of-line members that need IValue complete ---------------------------

inline IValue::IValue(std::vector<IValue> v)
    : IValue(Tag::GenericList, new detail::ListHolder<IValue>(std::move(v))) {}

template <class T>
  requires(!std::is_same_v<T, Tensor> && !std::is_same_v<T, std::optional<Tensor>> && !std::is_same_v<T, int64_t> &&
           !std::is_same_v<T, double> && !std::is_same_v<T, bool> && !std::is_same_v<T, std::string> &&
           !std::is_same_v<T, IValue>)
IValue::IValue(const std::vector<T>& v) : IValue() {
  if constexpr (std::is_integral_v<T>) {
    std::vector<int64_t> ints;
    ints.reserve(v.size());
    for (const T& x : v) ints.push_back(IValue(x).to_int());  // range-checked via IValue(T)
    *this = IValue(std::move(ints));
  } else if constexpr (std::is_floating_point_v<T>) {
    *this = IValue(std::vector<double>(v.begin(), v.end()));
  } else {
    std::vector<IValue> items;
    items.reserve(v.size());
    for (const T& x : v) items.emplace_back(x);
    // Converted types (ivalue_converter) that box as Strings or Ints
    // (Dimname, QScheme) make a StringList or IntList, as PyTorch's
    // List[str] / List[int] of them do.
    auto all = [&](auto is) {
      return has_ivalue_converter<T> && !items.empty() && std::all_of(items.begin(), items.end(), is);
    };
    if (all([](const IValue& i) { return i.is_string(); })) {
      std::vector<std::string> strings;
      strings.reserve(items.size());
      for (const IValue& i : items) strings.emplace_back(i.to_string_view());
      *this = IValue(std::move(strings));
    } else if (all([](const IValue& i) { return i.is_int(); })) {
      std::vector<int64_t> ints;
      ints.reserve(items.size());
      for (const IValue& i : items) ints.push_back(i.to_int());
      *this = IValue(std::move(ints));
    } else {
      *this = IValue(std::move(items));
    }
  }
}

template <class... Ts>
IValue::IValue(std::tuple<Ts...> t) : IValue() {
  std::vector<IValue> elements;
  elements.reserve(sizeof...(Ts));
  std::apply([&](auto&&... xs) { (elements.emplace_back(std::move(xs)), ...); }, std::move(t));
  *this = tuple(std::move(elements));
}

inline IValue IValue::tuple(std::vector<IValue> elements) {
  return IValue(Tag::Tuple, new detail::ListHolder<IValue>(std::move(elements)));
}
inline IValue IValue::generic_list(std::vector<IValue> elements) { return IValue(std::move(elements)); }

namespace detail {

// Dict keys hash and compare by value (str, int, float, complex, bool) or by
// identity (Tensor, as c10), after the tag: Int 1 and Double 1.0 are
// different keys. (Bodies in ivalue-inl.hpp.)
struct OPD_API DictKeyHash {
  std::size_t operator()(const IValue& k) const noexcept;
};
struct OPD_API DictKeyEqual {
  bool operator()(const IValue& a, const IValue& b) const;  // operator==
};

// The shared body of a GenericDict: entries in insertion order, and a hash
// index from key to position. Not synchronised (like the std containers).
struct OPD_API DictImpl final : intrusive_target {
  using Entry = std::pair<IValue, IValue>;
  std::vector<Entry> entries;
  std::unordered_map<IValue, std::size_t, DictKeyHash, DictKeyEqual> index;

  // The position of `key` in entries, or entries.size().
  std::size_t find(const IValue& key) const;
  // Inserts (key, value) unless key is present; with `assign`, a present
  // key's value is replaced. Returns the entry's position and whether it is new.
  std::pair<std::size_t, bool> insert(IValue key, IValue value, bool assign);
  // Removes key's entry (later entries keep their order, O(n)); returns 0 or 1.
  std::size_t erase(const IValue& key);
  void clear() noexcept {
    index.clear();
    entries.clear();
  }
};

}  // namespace detail

inline IValue IValue::generic_dict(detail::DictImpl* impl) noexcept { return IValue(Tag::GenericDict, impl); }
inline detail::DictImpl& IValue::to_dict_impl() const {
  expect(Tag::GenericDict);
  return *static_cast<detail::DictImpl*>(payload_.u.as_ptr);
}

inline const std::vector<IValue>& IValue::to_generic_list() const& { return list_ref<IValue>(); }
inline std::vector<IValue> IValue::to_generic_list() && { return take_list<IValue>(); }
inline const std::vector<IValue>& IValue::to_tuple() const& {
  expect(Tag::Tuple);
  return static_cast<const detail::ListHolder<IValue>*>(payload_.u.as_ptr)->items;
}
inline std::vector<IValue> IValue::to_tuple() && {
  expect(Tag::Tuple);
  return take_items<IValue>();
}

namespace detail {

inline bool same_tensor(const Tensor& a, const Tensor& b) noexcept { return a.is_same(b); }

template <class T, std::size_t... I>
T ivalue_to_tuple(const std::vector<IValue>& elements, std::index_sequence<I...>) {
  return T(ivalue_to<std::tuple_element_t<I, T>>(elements[I])...);
}
template <class T, std::size_t... I>
T ivalue_to_tuple(std::vector<IValue>&& elements, std::index_sequence<I...>) {
  return T(ivalue_to<std::tuple_element_t<I, T>>(std::move(elements[I]))...);
}

template <class T, class Self>
T ivalue_to(Self&& self) {
  using U = std::remove_cvref_t<T>;
  constexpr bool is_rvalue = !std::is_lvalue_reference_v<Self>;
  if constexpr (std::is_same_v<U, IValue>) {
    return std::forward<Self>(self);
  } else if constexpr (std::is_same_v<U, Tensor>) {
    return std::forward<Self>(self).to_tensor();
  } else if constexpr (has_ivalue_converter<U>) {
    return ivalue_converter<U>::from_ivalue(self);
  } else if constexpr (std::is_same_v<U, std::nullopt_t>) {
    if (!self.is_none()) {
      throw TypeError(std::string("Expected None but got ") + std::string(self.tag_kind()));
    }
    return std::nullopt;
  } else if constexpr (std::is_same_v<U, bool>) {
    return self.to_bool();
  } else if constexpr (std::is_same_v<U, int64_t>) {
    return self.to_int();
  } else if constexpr (std::is_integral_v<U>) {
    // Narrower integer parameters (e.g. DeviceIndex): range-checked.
    const int64_t v = self.to_int();
    const bool fits = std::is_signed_v<U>
                          ? (v >= static_cast<int64_t>(std::numeric_limits<U>::min()) &&
                             v <= static_cast<int64_t>(std::numeric_limits<U>::max()))
                          : (v >= 0 && static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<U>::max()));
    OPD_CHECK_VALUE(fits, "Int value ", v, " does not fit in the requested ", sizeof(U) * 8, "-bit integer");
    return static_cast<U>(v);
  } else if constexpr (std::is_same_v<U, double>) {
    return self.to_double();
  } else if constexpr (std::is_same_v<U, float>) {
    return static_cast<float>(self.to_double());
  } else if constexpr (std::is_same_v<U, std::complex<double>>) {
    return self.to_complex_double();
  } else if constexpr (std::is_same_v<U, std::string>) {
    return std::forward<Self>(self).to_string_ref();
  } else if constexpr (std::is_same_v<U, std::string_view>) {
    static_assert(!is_rvalue, "to<std::string_view>() would dangle on an rvalue IValue");
    return self.to_string_view();
  } else if constexpr (std::is_same_v<U, Scalar>) {
    return self.to_scalar();
  } else if constexpr (std::is_same_v<U, Device>) {
    return self.to_device();
  } else if constexpr (std::is_same_v<U, ScalarType>) {
    return self.to_scalar_type();
  } else if constexpr (std::is_same_v<U, Layout>) {
    return self.to_layout();
  } else if constexpr (std::is_same_v<U, MemoryFormat>) {
    return self.to_memory_format();
  } else if constexpr (std::is_same_v<U, Generator>) {
    return self.to_generator();
  } else if constexpr (std::is_same_v<U, Storage>) {
    return self.to_storage();
  } else if constexpr (std::is_same_v<U, CustomObject>) {
    return self.to_object();
  } else if constexpr (is_optional_v<U>) {
    if (self.is_none()) return U(std::nullopt);
    return U(ivalue_to<typename U::value_type>(std::forward<Self>(self)));
  } else if constexpr (is_array_ref_v<U>) {
    static_assert(!is_rvalue, "to<ArrayRef<T>>() would dangle on an rvalue IValue");
    using E = typename U::value_type;
    if constexpr (std::is_same_v<E, IValue>) {
      if (self.is_tuple()) return U(self.to_tuple());
    }
    return U(self.template list_ref<E>());
  } else if constexpr (is_vector_v<U>) {
    using E = typename U::value_type;
    constexpr IValueTag direct = list_tag_for<E>();
    if constexpr (direct != IValueTag::None) {
      if constexpr (std::is_same_v<E, IValue>) {
        // Tuples and generic lists are both sequences of IValues.
        if (self.is_tuple()) return std::forward<Self>(self).to_tuple();
      }
      if constexpr (is_rvalue) {
        return self.template take_list<E>();
      } else {
        return self.template list_ref<E>();
      }
    } else {
      // Element-wise from a GenericList (e.g. vector<vector<int64_t>>), or
      // from a typed list whose elements convert (Dimname from a StringList).
      U out;
      auto convert_each = [&](const auto& items) {
        out.reserve(items.size());
        for (const auto& item : items) out.push_back(ivalue_to<E>(IValue(item)));
        return out;
      };
      if (self.is_string_list()) return convert_each(self.to_string_list());
      if (self.is_int_list()) return convert_each(self.to_int_list());
      if (self.is_double_list()) return convert_each(self.to_double_list());
      if constexpr (is_rvalue) {
        std::vector<IValue> items = std::move(self).to_generic_list();
        out.reserve(items.size());
        for (IValue& item : items) out.push_back(ivalue_to<E>(std::move(item)));
      } else {
        const std::vector<IValue>& items = self.to_generic_list();
        out.reserve(items.size());
        for (const IValue& item : items) out.push_back(ivalue_to<E>(item));
      }
      return out;
    }
  } else if constexpr (is_tuple_v<U>) {
    constexpr std::size_t n = std::tuple_size_v<U>;
    const std::size_t got = self.to_tuple().size();
    OPD_CHECK_TYPE(got == n, "Expected a tuple of ", n, " elements but got ", got);
    if constexpr (is_rvalue) {
      return ivalue_to_tuple<U>(std::move(self).to_tuple(), std::make_index_sequence<n>{});
    } else {
      return ivalue_to_tuple<U>(self.to_tuple(), std::make_index_sequence<n>{});
    }
  } else {
    static_assert(sizeof(U) == 0, "IValue::to<T>: unsupported T");
  }
}

inline void print_quoted(std::ostream& os, std::string_view s) {
  os << '"';
  for (char c : s) {
    switch (c) {
      case '"': os << "\\\""; break;
      case '\\': os << "\\\\"; break;
      case '\n': os << "\\n"; break;
      case '\t': os << "\\t"; break;
      default: os << c;
    }
  }
  os << '"';
}

template <class Range, class F>
void print_list(std::ostream& os, const Range& items, F&& print_one) {
  os << '[';
  bool first = true;
  for (const auto& x : items) {
    if (!first) os << ", ";
    print_one(x);
    first = false;
  }
  os << ']';
}

}  // namespace detail

// Structural equality for testing: same tag and equal value; tensors,
// generators and storages compare by identity (same object), lists and
// tuples element-wise, dicts entry by entry in any order, objects by
// pointer. Int 1 != Double 1.0.
inline bool operator==(const IValue& a, const IValue& b) {
  using Tag = IValueTag;
  if (a.tag() != b.tag()) return false;
  switch (a.tag()) {
    case Tag::None: return true;
    case Tag::Tensor: return a.to_tensor().is_same(b.to_tensor());
    case Tag::Double: return a.to_double() == b.to_double();
    case Tag::ComplexDouble: return a.to_complex_double() == b.to_complex_double();
    case Tag::Int: return a.to_int() == b.to_int();
    case Tag::Bool: return a.to_bool() == b.to_bool();
    case Tag::String: return a.to_string_ref() == b.to_string_ref();
    case Tag::Device: return a.to_device() == b.to_device();
    case Tag::Generator: return a.to_generator() == b.to_generator();
    case Tag::Storage: return a.to_storage().is_same(b.to_storage());
    case Tag::TensorList: {
      const auto& x = a.to_tensor_list();
      const auto& y = b.to_tensor_list();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!x[i].is_same(y[i])) return false;
      return true;
    }
    case Tag::OptionalTensorList: {
      const auto& x = a.to_optional_tensor_list();
      const auto& y = b.to_optional_tensor_list();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i].has_value() != y[i].has_value()) return false;
        if (x[i] && !x[i]->is_same(*y[i])) return false;
      }
      return true;
    }
    case Tag::IntList: return a.to_int_list() == b.to_int_list();
    case Tag::DoubleList: return a.to_double_list() == b.to_double_list();
    case Tag::BoolList: return a.to_bool_list() == b.to_bool_list();
    case Tag::StringList: return a.to_string_list() == b.to_string_list();
    case Tag::GenericList: return a.to_generic_list() == b.to_generic_list();
    case Tag::Tuple: return a.to_tuple() == b.to_tuple();
    case Tag::GenericDict: {  // the same entries, in any order (as c10)
      const detail::DictImpl& x = a.to_dict_impl();
      const detail::DictImpl& y = b.to_dict_impl();
      if (&x == &y) return true;
      if (x.entries.size() != y.entries.size()) return false;
      for (const auto& [key, value] : x.entries) {
        const std::size_t at = y.find(key);
        if (at == y.entries.size() || !(y.entries[at].second == value)) return false;
      }
      return true;
    }
    case Tag::Object: return a.to_object() == b.to_object();
  }
  return false;
}


// Python-like text: None, True, 3, 2.5, (2+3j), "str", cpu, [1, 2], (3,).
inline std::ostream& operator<<(std::ostream& os, const IValue& v) {
  using Tag = IValueTag;
  switch (v.tag()) {
    case Tag::None: return os << "None";
    case Tag::Tensor: return print_tensor_summary(os, v.to_tensor());  // (not the values: messages stay short)
    case Tag::Double: return os << detail::format_double(v.to_double());
    case Tag::ComplexDouble: return os << detail::format_complex(v.to_complex_double());
    case Tag::Int: return os << v.to_int();
    case Tag::Bool: return os << (v.to_bool() ? "True" : "False");
    case Tag::String: detail::print_quoted(os, v.to_string_ref()); return os;
    case Tag::Device: return os << v.to_device();
    case Tag::Generator: return os << v.to_generator();
    case Tag::Storage: return os << v.to_storage();
    case Tag::TensorList:
      detail::print_list(os, v.to_tensor_list(), [&](const Tensor& t) { print_tensor_summary(os, t); });
      return os;
    case Tag::OptionalTensorList:
      detail::print_list(os, v.to_optional_tensor_list(), [&](const std::optional<Tensor>& t) {
        if (t) print_tensor_summary(os, *t);
        else os << "None";
      });
      return os;
    case Tag::IntList: detail::print_list(os, v.to_int_list(), [&](int64_t x) { os << x; }); return os;
    case Tag::DoubleList:
      detail::print_list(os, v.to_double_list(), [&](double x) { os << detail::format_double(x); });
      return os;
    case Tag::BoolList:
      detail::print_list(os, v.to_bool_list(), [&](bool x) { os << (x ? "True" : "False"); });
      return os;
    case Tag::StringList:
      detail::print_list(os, v.to_string_list(), [&](const std::string& x) { detail::print_quoted(os, x); });
      return os;
    case Tag::GenericList: detail::print_list(os, v.to_generic_list(), [&](const IValue& x) { os << x; }); return os;
    case Tag::Tuple: {
      const auto& elements = v.to_tuple();
      os << '(';
      for (std::size_t i = 0; i < elements.size(); ++i) {
        if (i) os << ", ";
        os << elements[i];
      }
      if (elements.size() == 1) os << ',';
      return os << ')';
    }
    case Tag::GenericDict: {  // {"a": 1, "b": 2}, in insertion order
      os << '{';
      bool first = true;
      for (const auto& [key, value] : v.to_dict_impl().entries) {
        os << (first ? "" : ", ") << key << ": " << value;
        first = false;
      }
      return os << '}';
    }
    case Tag::Object: return os << "Object(" << v.to_object().type_name << ")";
  }
  return os;
}

// ---- Stack -----------------------------------------------------------------------

using Stack = std::vector<IValue>;

// push(stack, a, b, c): appends each argument converted to an IValue.
template <class... Args>
void push(Stack& stack, Args&&... args) {
  (stack.emplace_back(std::forward<Args>(args)), ...);
}

// Removes and returns the top value.
inline IValue pop(Stack& stack) {
  OPD_CHECK_INDEX(!stack.empty(), "pop: the stack is empty");
  IValue v = std::move(stack.back());
  stack.pop_back();
  return v;
}

// Removes and returns the top n values, deepest first.
inline std::vector<IValue> pop(Stack& stack, std::size_t n) {
  OPD_CHECK_INDEX(n <= stack.size(), "pop: asked for ", n, " values but the stack holds ", stack.size());
  const auto first = stack.end() - static_cast<std::ptrdiff_t>(n);
  std::vector<IValue> out(std::make_move_iterator(first), std::make_move_iterator(stack.end()));
  stack.erase(first, stack.end());
  return out;
}

// The i-th of the top n values (i = 0 is the deepest of them).
inline IValue& peek(Stack& stack, std::size_t i, std::size_t n) {
  OPD_CHECK_INDEX(i < n && n <= stack.size(), "peek(", i, ", ", n, ") out of range for a stack of ", stack.size());
  return stack[stack.size() - n + i];
}
inline const IValue& peek(const Stack& stack, std::size_t i, std::size_t n) {
  OPD_CHECK_INDEX(i < n && n <= stack.size(), "peek(", i, ", ", n, ") out of range for a stack of ", stack.size());
  return stack[stack.size() - n + i];
}

// The top n values, without removing them.
inline ArrayRef<IValue> last(const Stack& stack, std::size_t n) {
  OPD_CHECK_INDEX(n <= stack.size(), "last: asked for ", n, " values but the stack holds ", stack.size());
  return ArrayRef<IValue>(stack.data() + (stack.size() - n), n);
}

// Removes the top n values.
inline void drop(Stack& stack, std::size_t n) {
  OPD_CHECK_INDEX(n <= stack.size(), "drop: asked for ", n, " values but the stack holds ", stack.size());
  stack.erase(stack.end() - static_cast<std::ptrdiff_t>(n), stack.end());
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/ivalue-inl.hpp"
#endif
