#pragma once
// The schema language: parse at compile time (schema_of<"...">) or run time
// (schema::parse), print, and query.
#include "schema/error.hpp"
#include "schema/fixed_string.hpp"
#include "schema/literal.hpp"
#include "schema/model.hpp"
#include "schema/parser.hpp"
#include "schema/printer.hpp"
#include "schema/runtime.hpp"
