#!/usr/bin/env bash
# The include rules of rndn's layers (run by `make` before rndn.so is linked, and by the test
# suite).  Usage: tools/check_layers.sh [ROOT]   (ROOT defaults to the checkout)
#   - src/planner_hook and src/executor never include each other's headers; src/pg_base, the
#     base below both, includes neither;
#   - the core components (every other folder of src/) include no PostgreSQL header and none of
#     the three PostgreSQL-side folders;
#   - src/planner_hook writes no HorseIR text: the translator builds a hir::Program with
#     hir::Builder and names builtins by hir::Builtin, so no string literal there holds a
#     fragment of HorseIR ("@name(", "t1:? =", "check_cast(", ":i64", "`sym", "import Builtin").
# A quoted include "dir/file" counts as rndn's own when ROOT/src/dir/file exists (PostgreSQL has
# headers named executor/... too, which the PostgreSQL side may include).
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root/src" || exit 2
bad=0
pg_side="planner_hook executor pg_base"

# includes FILE -> one quoted include per line
includes() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }

check_folder() {  # folder, forbidden folders..., [--no-pg]
    local folder=$1; shift
    local nopg=0 forbidden=()
    for a in "$@"; do if [ "$a" = --no-pg ]; then nopg=1; else forbidden+=("$a"); fi; done
    local f inc
    for f in "$folder"/*.h "$folder"/*.cpp "$folder"/*.def; do
        [ -f "$f" ] || continue
        while IFS= read -r inc; do
            local top=${inc%%/*}
            for x in "${forbidden[@]}"; do
                if [ "$top" = "$x" ] && [ -f "$inc" ]; then
                    echo "layering: src/$f includes \"$inc\" (src/$folder must not include src/$x)" >&2
                    bad=1
                fi
            done
            if [ $nopg = 1 ] && { [ "$inc" = postgres.h ] || [ "$inc" = postgres_ext.h ] || [ "$inc" = fmgr.h ]; }; then
                echo "layering: src/$f includes the PostgreSQL header \"$inc\" (src/$folder is PostgreSQL-free)" >&2
                bad=1
            fi
        done < <(includes "$f")
    done
}

check_folder planner_hook executor
check_folder executor planner_hook
check_folder pg_base planner_hook executor
for d in */; do
    d=${d%/}
    case " $pg_side " in *" $d "*) continue ;; esac
    check_folder "$d" $pg_side --no-pg
done

# HorseIR text fragments in string literals of src/planner_hook (comments are not looked at).
hir_text='"[^"]*(@[A-Za-z_]|:\?|check_cast\(|:(bool|i8|i16|i32|i64|f32|f64|str|sym|date|dec64|dec128)\b|`[A-Za-z_]|import Builtin|def main)'
for f in planner_hook/*.h planner_hook/*.cpp planner_hook/*.def; do
    [ -f "$f" ] || continue
    hits=$(sed -e 's://.*$::' "$f" | grep -nE "$hir_text")
    if [ -n "$hits" ]; then
        while IFS= read -r h; do
            echo "layering: src/$f:${h%%:*}: HorseIR text in a string literal (build it with hir::Builder): ${h#*:}" >&2
        done <<< "$hits"
        bad=1
    fi
done
exit $bad
