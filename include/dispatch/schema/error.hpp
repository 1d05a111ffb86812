#pragma once
// What can be wrong with a schema. The enumerator names are written to be read
// in a compiler diagnostic (opd::malformed_schema<opd::schema_error::..., column, text>),
// and schema_error_message() gives the same thing as a sentence at run time.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace opd {

enum class schema_error : int {
  none = 0,
  empty_schema,
  unexpected_character,
  unterminated_string_literal,
  expected_operator_name,
  reserved_word_used_as_name,
  expected_second_colon_in_namespace,
  expected_overload_name_after_dot,
  missing_argument_list,
  expected_comma_or_close_paren,
  expected_type,
  unknown_type,
  use_float_instead_of_double,
  expected_argument_name,
  expected_alias_set_name,
  expected_close_paren_of_alias_annotation,
  expected_list_size,
  expected_close_bracket,
  expected_custom_class_path,
  expected_open_paren_after_container_type,
  expected_arrow,
  expected_end_of_schema,
  vararg_must_be_last,
  vararg_with_default_argument,
  expected_default_value,
  default_does_not_fit_type,
  number_out_of_range,
  unknown_symbolic_default,
  invalid_numeric_default,
  repeated_argument_name,
  repeated_return_name,
  schema_too_complex,
};

constexpr std::string_view schema_error_message(schema_error e) {
  switch (e) {
    case schema_error::none: return "no error";
    case schema_error::empty_schema: return "the schema is empty";
    case schema_error::unexpected_character: return "unexpected character";
    case schema_error::unterminated_string_literal: return "unterminated string literal";
    case schema_error::expected_operator_name: return "expected an operator name";
    case schema_error::reserved_word_used_as_name: return "a reserved word cannot be used as a name";
    case schema_error::expected_second_colon_in_namespace: return "expected '::' between namespace and name";
    case schema_error::expected_overload_name_after_dot: return "expected an overload name after '.'";
    case schema_error::missing_argument_list: return "only the operator name was given: expected '(' and an argument list";
    case schema_error::expected_comma_or_close_paren: return "expected ',' or ')'";
    case schema_error::expected_type: return "expected a type";
    case schema_error::unknown_type: return "unknown type";
    case schema_error::use_float_instead_of_double: return "use 'float' instead of 'double' in a schema";
    case schema_error::expected_argument_name: return "expected an argument name";
    case schema_error::expected_alias_set_name: return "expected an alias set name or '*' in the alias annotation";
    case schema_error::expected_close_paren_of_alias_annotation: return "expected ')' to close the alias annotation";
    case schema_error::expected_list_size: return "expected a list size or ']'";
    case schema_error::expected_close_bracket: return "expected ']'";
    case schema_error::expected_custom_class_path: return "expected a custom class path __torch__.torch.classes.<namespace>.<Class>";
    case schema_error::expected_open_paren_after_container_type: return "expected '(' after a container type name";
    case schema_error::expected_arrow: return "expected '->' after the argument list";
    case schema_error::expected_end_of_schema: return "expected the end of the schema";
    case schema_error::vararg_must_be_last: return "'...' must be the last element of its list";
    case schema_error::vararg_with_default_argument: return "a schema with '...' cannot have arguments with defaults";
    case schema_error::expected_default_value: return "expected a default value";
    case schema_error::default_does_not_fit_type: return "the default value does not fit the argument's type";
    case schema_error::number_out_of_range: return "number out of range";
    case schema_error::unknown_symbolic_default: return "unknown symbolic default value";
    case schema_error::invalid_numeric_default:
      return "invalid numeric default value (of the dtype names, PyTorch reads only 'long', 'float' and 'complex')";
    case schema_error::repeated_argument_name: return "repeated argument name";
    case schema_error::repeated_return_name: return "repeated return name";
    case schema_error::schema_too_complex: return "the schema exceeds the parser's limits";
  }
  return "unknown error";
}

// Where and what: `column` is 1-based and counts bytes from the schema's start
// (a schema written over several lines keeps counting across line breaks).
struct parse_error {
  schema_error code = schema_error::none;
  std::size_t column = 0;
  std::string_view near;  // the text at the error (a token, or the rest of the line)
  constexpr explicit operator bool() const { return code != schema_error::none; }
};

}  // namespace opd
