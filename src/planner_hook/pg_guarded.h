// Every PostgreSQL function the translator calls that can raise an ERROR, redefined as a guarded
// call (pg::PgCall, src/pg_base/pg_call.h): an ERROR (a dropped function or type met by a
// catalog lookup, a cancel, out of memory) unwinds the translator's C++ objects as pg::PgError
// and is re-raised unchanged at the boundary.  Included last by translator.h, so it rewrites the
// calls of translate.cpp and translate_expr.cpp (and the PostgreSQL macros they expand, such as
// TextDatumGetCString, DatumGetTextPP and DirectFunctionCall1) without touching them.  Inside a
// macro's own expansion its name is not expanded again, so `::name(...)` is PostgreSQL's.
//
// Not guarded: ReleaseSysCache and RelationClose (they do not raise), and the translator's own
// callbacks of expression_tree_walker/mutator, which run inside the guarded walker call (they
// hold no C++ object across a nested PostgreSQL call).
#pragma once

extern "C" {
#include "miscadmin.h"
}

#include "pg_base/pg_call.h"

// Each guarded call first serves a pending cancel or statement timeout (CHECK_FOR_INTERRUPTS,
// raised as any other ERROR of the call): the translator makes several such calls per
// expression node, so a long translation stops within a node or two.
#define RNDN_PG_GUARDED(call) (::rndn::pg::PgCall([&] {                 \
    CHECK_FOR_INTERRUPTS();                                             \
    return call;                                                        \
}))

// catalog and syscache lookups
#define SearchSysCache1(...) RNDN_PG_GUARDED(::SearchSysCache1(__VA_ARGS__))
#define SysCacheGetAttr(...) RNDN_PG_GUARDED(::SysCacheGetAttr(__VA_ARGS__))
#define get_opcode(...) RNDN_PG_GUARDED(::get_opcode(__VA_ARGS__))
#define get_func_name(...) RNDN_PG_GUARDED(::get_func_name(__VA_ARGS__))
#define get_rel_name(...) RNDN_PG_GUARDED(::get_rel_name(__VA_ARGS__))
#define get_attname(...) RNDN_PG_GUARDED(::get_attname(__VA_ARGS__))
#define get_atttypetypmodcoll(...) RNDN_PG_GUARDED(::get_atttypetypmodcoll(__VA_ARGS__))
#define get_typlenbyvalalign(...) RNDN_PG_GUARDED(::get_typlenbyvalalign(__VA_ARGS__))
#define get_ordering_op_properties(...) RNDN_PG_GUARDED(::get_ordering_op_properties(__VA_ARGS__))
#define get_collation_isdeterministic(...) RNDN_PG_GUARDED(::get_collation_isdeterministic(__VA_ARGS__))
#define lc_collate_is_c(...) RNDN_PG_GUARDED(::lc_collate_is_c(__VA_ARGS__))
#define lc_ctype_is_c(...) RNDN_PG_GUARDED(::lc_ctype_is_c(__VA_ARGS__))
#define RelationIdGetRelation(...) RNDN_PG_GUARDED(::RelationIdGetRelation(__VA_ARGS__))
// type output and names
#define format_type_be(...) RNDN_PG_GUARDED(::format_type_be(__VA_ARGS__))
#define format_type_extended(...) RNDN_PG_GUARDED(::format_type_extended(__VA_ARGS__))
#define DirectFunctionCall1Coll(...) RNDN_PG_GUARDED(::DirectFunctionCall1Coll(__VA_ARGS__))
#define text_to_cstring(...) RNDN_PG_GUARDED(::text_to_cstring(__VA_ARGS__))
// detoasting (DatumGetTextPP, DatumGetArrayTypeP) and arrays
#define pg_detoast_datum_packed(...) RNDN_PG_GUARDED(::pg_detoast_datum_packed(__VA_ARGS__))
#define pg_detoast_datum(...) RNDN_PG_GUARDED(::pg_detoast_datum(__VA_ARGS__))
#define deconstruct_array(...) RNDN_PG_GUARDED(::deconstruct_array(__VA_ARGS__))
// node trees (unknown node types raise) and lists (palloc)
#define exprType(...) RNDN_PG_GUARDED(::exprType(__VA_ARGS__))
#define exprTypmod(...) RNDN_PG_GUARDED(::exprTypmod(__VA_ARGS__))
#define expression_tree_walker(...) RNDN_PG_GUARDED(::expression_tree_walker(__VA_ARGS__))
#define expression_tree_mutator(...) RNDN_PG_GUARDED(::expression_tree_mutator(__VA_ARGS__))
#define makeVar(...) RNDN_PG_GUARDED(::makeVar(__VA_ARGS__))
#define lappend(...) RNDN_PG_GUARDED(::lappend(__VA_ARGS__))
#define list_copy(...) RNDN_PG_GUARDED(::list_copy(__VA_ARGS__))
#define list_concat(...) RNDN_PG_GUARDED(::list_concat(__VA_ARGS__))
// makeNode: newNode's palloc0fast (out of memory)
#define MemoryContextAllocZeroAligned(...) RNDN_PG_GUARDED(::MemoryContextAllocZeroAligned(__VA_ARGS__))
#define MemoryContextAllocZero(...) RNDN_PG_GUARDED(::MemoryContextAllocZero(__VA_ARGS__))
