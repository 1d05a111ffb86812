#pragma once
// The schema language: parse at compile time (schema_of<"...">) or run time
// (schema::parse), print, query, and derive variants (out=, functional).
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "schema/error.hpp"
#include "schema/fixed_string.hpp"
#include "schema/literal.hpp"
#include "schema/model.hpp"
#include "schema/parser.hpp"
#include "schema/printer.hpp"
#include "schema/properties.hpp"
#include "schema/queries.hpp"
#include "schema/runtime.hpp"
#include "schema/variants.hpp"
