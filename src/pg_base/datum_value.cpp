// PostgreSQL values -> HorseIR scalar vectors (see datum_value.h).
#include "horseir/horseir.h"  // before PostgreSQL's headers: utils/datetime.h defines MONTH

extern "C" {
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
}

#include <cmath>
#include <string>

#include "common/numeric_digits.h"
#include "common/uuid_text.h"
#include "pg_base/datum_value.h"
#include "pg_base/pg_call.h"

namespace rndn::pg {

std::optional<hir::Type> HirTypeOf(unsigned type, int scale) {
    switch (type) {
        case BOOLOID: return hir::Type(hir::TypeKind::BOOL);
        case INT2OID: return hir::Type(hir::TypeKind::I16);
        case INT4OID: return hir::Type(hir::TypeKind::I32);
        case INT8OID: return hir::Type(hir::TypeKind::I64);
        case FLOAT4OID: return hir::Type(hir::TypeKind::F32);
        case FLOAT8OID: return hir::Type(hir::TypeKind::F64);
        case DATEOID: return hir::Type(hir::TypeKind::DATE);
        case TIMESTAMPOID:    // int64 microseconds since 2000-01-01, as PostgreSQL stores it;
        case TIMESTAMPTZOID:  // timestamptz: the same count in UTC (the session TimeZone only
            return hir::Type(hir::TypeKind::DT);  // enters extract/date_trunc/casts, other prosrcs)
        case TEXTOID:
        case VARCHAROID:
        case BPCHAROID: return hir::Type(hir::TypeKind::STR);
        case UUIDOID: return hir::Type(hir::TypeKind::STR);  // its canonical text (common/uuid_text.h)
        case INTERVALOID: return hir::Type(hir::TypeKind::INTERVAL);  // PostgreSQL's Interval, copied
        case NUMERICOID:
            if (scale < 0 || scale > 38) return std::nullopt;
            return hir::Type::Decimal(hir::TypeKind::DEC128, scale);
        default: return std::nullopt;
    }
}

std::optional<hir::Type> ColumnHirTypeOf(unsigned type, int typmod) {
    if (type != NUMERICOID) return HirTypeOf(type, -1);
    int precision, scale;
    // unconstrained: dec128 with one display scale per value (the loader's FinishPerValueScales)
    if (!numeric::TypmodPrecisionScale(typmod, &precision, &scale)) return hir::Type::Decimal(hir::TypeKind::DEC128, hir::Type::kUnknownScale);
    if (scale < 0 || precision > 38 || scale > precision) return std::nullopt;
    return hir::Type::Decimal(precision <= 18 ? hir::TypeKind::DEC64 : hir::TypeKind::DEC128, scale);
}

namespace {

// numeric_out's text (guarded: it allocates).
std::string NumericText(Datum d) {
    return PgCall([d] {
        char *txt = DatumGetCString(DirectFunctionCall1(numeric_out, d));
        std::string s(txt);
        pfree(txt);
        return s;
    });
}

bool PlainNumber(const std::string &s) { return !s.empty() && s.find_first_not_of("-0123456789.") == std::string::npos; }

int ScaleOfText(const std::string &num) {
    const size_t dot = num.find('.');
    return dot == std::string::npos ? 0 : (int)(num.size() - dot - 1);
}

template <class T>
Expected<std::shared_ptr<hir::Vector>> One(const hir::Type &t, T x) {
    RNDN_ASSIGN_OR_RETURN(auto v, hir::MakeVector(t, 1));
    v->template Data<T>()[0] = x;
    return v;
}

}  // namespace

Expected<int> NumericDatumScale(uintptr_t datum) {
    const std::string s = NumericText((Datum)datum);
    if (!PlainNumber(s)) return Status::Unsupported("numeric value " + s);
    return ScaleOfText(s);
}

Expected<std::shared_ptr<hir::Vector>> ScalarFromDatum(unsigned type, uintptr_t datum, bool isnull, const hir::Type &target,
                                                       bool widen) {
    const Datum d = (Datum)datum;
    std::optional<hir::Type> expect = HirTypeOf(type, target.scale);
    if (!expect || *expect != target)
        return Status::Unsupported("a value of type " + std::to_string(type) + " as " + hir::TypeToString(target));
    if (isnull) {
        RNDN_ASSIGN_OR_RETURN(auto v, hir::MakeVector(target, 1));
        v->SetNull(0);
        return v;
    }
    switch (type) {
        case BOOLOID: return One<uint8_t>(target, DatumGetBool(d) ? 1 : 0);
        case INT2OID: return One<int16_t>(target, DatumGetInt16(d));
        case INT4OID: return One<int32_t>(target, DatumGetInt32(d));
        case INT8OID: return One<int64_t>(target, DatumGetInt64(d));
        case FLOAT4OID: {
            // NaN and the infinities too: HorseIR spells them NaN, Infinity, -Infinity
            return One<float>(target, DatumGetFloat4(d));
        }
        case FLOAT8OID: {
            return One<double>(target, DatumGetFloat8(d));
        }
        case DATEOID: {
            const DateADT v = DatumGetDateADT(d);
            if (DATE_NOT_FINITE(v)) return One<int32_t>(target, v);  // ±infinity: HorseIR's Infinity:date, -Infinity:date
            int y, m, dd;
            j2date(v + POSTGRES_EPOCH_JDATE, &y, &m, &dd);
            if (y < 1 || y > 9999) return Status::Unsupported("date out of 0001..9999");
            return One<int32_t>(target, v);  // days since 2000-01-01, as HorseIR's date
        }
        case TIMESTAMPOID:
        case TIMESTAMPTZOID: {
            // HorseIR's dt literal holds microseconds (years 0001..9999) and the infinities
            // (Infinity:dt, -Infinity:dt); a timestamptz value is its UTC instant, as timestamptz
            // columns hold it
            const Timestamp v = DatumGetTimestamp(d);
            if (TIMESTAMP_NOT_FINITE(v)) return One<int64_t>(target, v);
            const int64 days = v / USECS_PER_DAY - (v % USECS_PER_DAY < 0 ? 1 : 0);
            int y, m, dd;
            j2date((int)(days + POSTGRES_EPOCH_JDATE), &y, &m, &dd);
            if (y < 1 || y > 9999) return Status::Unsupported("timestamp out of 0001..9999");
            return One<int64_t>(target, v);
        }
        case INTERVALOID: {
            const Interval *span = DatumGetIntervalP(d);
            hir::IntervalValue v;
            v.time = span->time;
            v.day = span->day;
            v.month = span->month;
            return One<hir::IntervalValue>(target, v);
        }
        case TEXTOID:
        case VARCHAROID:
        case BPCHAROID: {
            std::string s = PgCall([d] {
                text *t = DatumGetTextPP(d);
                return std::string(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
            });
            if (type == BPCHAROID)
                while (!s.empty() && s.back() == ' ') s.pop_back();
            RNDN_ASSIGN_OR_RETURN(auto v, hir::MakeVector(target, 0));
            v->AppendString(s);
            return v;
        }
        case UUIDOID: {
            char txt[uuidtext::kTextLen];
            uuidtext::Format(DatumGetUUIDP(d)->data, txt);
            RNDN_ASSIGN_OR_RETURN(auto v, hir::MakeVector(target, 0));
            v->AppendString(std::string_view(txt, sizeof txt));
            return v;
        }
        case NUMERICOID: {
            std::string s = NumericText(d);
            if (!PlainNumber(s)) return Status::Unsupported("numeric value " + s);
            // Exact or refused: a value whose display scale differs from the declared one would
            // print (and scale arithmetic) differently from PostgreSQL.  Widened (the value only
            // is used): any display scale, when the digits beyond the target's scale are zeros.
            if (widen && ScaleOfText(s) > target.scale) {
                const size_t keep = s.size() - (size_t)(ScaleOfText(s) - target.scale);
                if (s.find_first_not_of('0', keep) == std::string::npos) s.resize(target.scale == 0 ? keep - 1 : keep);
            }
            if (widen ? ScaleOfText(s) > target.scale : ScaleOfText(s) != target.scale)
                return Status::Unsupported("numeric value " + s + " of scale " + std::to_string(ScaleOfText(s)) + " where scale " +
                                           std::to_string(target.scale) + " is declared");
            Expected<__int128> x = hir::ParseDecimal(s, target.scale);
            if (!x.ok()) return Status::Unsupported("numeric value " + s + " out of dec128's range");
            return One<__int128>(target, x.value());
        }
        default: return Status::Unsupported("a value of type " + std::to_string(type));
    }
}

}  // namespace rndn::pg
