// aclgen_check.h: the predicates behind every aclgen rule, in C++17, for generated op_api code.
//
// A header-only port of aclgen's `runtime/src/pred/` (`aclnn_runtime::pred`): the same function
// names, the same parameter order and the same error texts, so a rule means exactly the same in the
// Rust validators and in the generated `aclnn_<op>.cpp`. Each predicate returns an empty string when
// the call satisfies it, else the message saying what in the call broke it.
//
// Types: a Rust `TensorDesc` is an `aclTensor` here (view shape, dtype, storage format, view
// strides); `DType` is `op::DataType`, `Format` is `op::Format`; `Option<&Arg>` is `const Arg&`, whose
// `Kind::Null` stands for both `None` and a null pointer; `Result<(), String>` is `std::string` (empty
// = Ok) and `Result<Option<T>, String>` is `Res<T>`.
//
// `dtype_name` and `format_name` print a dtype or format as the Rust vocabulary's Display does
// ("FLOAT32", "ND"). They are only declared here: aclgen writes their definitions, from its
// vocabulary table, into `aclgen_vocab.h`, which is included before this header.
//
// Where C++ sees more than Rust can express:
// - `dtype_is_arg` with a null argument passes (Rust errs on `Some(Arg::Null)`, which generated code
//   never passes: a null pointer is `None` there too).
// - `list` skips a null element of an aclTensorList (a Rust slice has none); the others keep `name[i]`.
// - `arg_of(const aclScalarList*)` is its first element, as aclgen checks a scalar list as one scalar;
//   a null or empty list is `Kind::Null`.
// - `is_private` (Rust's `Format::is_private`) of a format the Rust vocabulary lacks (C04 and other
//   variants) is opbase's `IsPrivateFormat` of its primary format.
// - Contiguity is Rust's `TensorDesc::is_contiguous` over the view shape and view strides, not opbase's
//   `IsContiguous` (which also passes private formats and tensors of 0 or 1 element).
// - Formats have no NLC (no aclFormat has it): `channel_axis` knows NHWC and NDHWC as channels-last.
//
// Written for aclgen; it includes CANN's public opbase headers and copies no CANN code.

#ifndef ACLGEN_CHECK_H
#define ACLGEN_CHECK_H

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/format_utils.h"
#include "opdev/op_log.h"
#include "opdev/platform.h"

namespace aclgen {
namespace pred {

/// The Rust vocabulary's Display of a dtype or format ("FLOAT32", "ND"); defined in aclgen_vocab.h.
const char* dtype_name(op::DataType d);
const char* format_name(op::Format f);
/// The dtype an `aclDataType` number names ("dstType = 27": BFLOAT16); false for none.
bool dtype_of_acl_number(int64_t v, op::DataType* out);

/// A tensor with the label messages use: the parameter name, or `name[i]` for a list element.
struct Named {
    std::string name;
    const aclTensor* t;
};
using Tensors = std::vector<Named>;

/// `Result<Option<T>, String>`: an error (`err` not empty), or a value that may be absent.
template <class T>
struct Res {
    std::string err;
    std::optional<T> value;
    bool ok() const { return err.empty(); }
};

/// `check` of `res`'s value: `res`'s error is the result, an absent value passes (as
/// `map_or(Ok(()), ..)` in Rust).
template <class T, class F>
inline std::string with_value(const Res<T>& res, F&& check)
{
    if (!res.ok()) {
        return res.err;
    }
    if (!res.value) {
        return std::string();
    }
    return check(*res.value);
}

namespace detail {

// ---- text, as Rust formats it ----

/// Rust's Display of an f64: the shortest text that reads back, never an exponent.
inline std::string f64_text(double x)
{
    if (std::isnan(x)) {
        return "NaN";
    }
    if (std::isinf(x)) {
        return x > 0 ? "inf" : "-inf";
    }
    char buf[512];
    auto r = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::fixed);
    return std::string(buf, r.ptr);
}

inline std::string text(const std::string& s) { return s; }
inline std::string text(const char* s) { return s; }
inline std::string text(int64_t v) { return std::to_string(v); }
inline std::string text(uint64_t v) { return std::to_string(v); }
inline std::string text(op::DataType d) { return dtype_name(d); }
inline std::string text(op::Format f) { return format_name(f); }

/// `items` joined by ", ", each by its Display.
template <class T>
inline std::string join(const std::vector<T>& items)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            out += ", ";
        }
        out += text(items[i]);
    }
    return out;
}

/// Rust's Debug of a `Vec<i64>` / `&[i64]`: "[2, 3]".
inline std::string list_text(const std::vector<int64_t>& v)
{
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) {
        if (i > 0) {
            out += ", ";
        }
        out += std::to_string(v[i]);
    }
    return out + "]";
}

// ---- integer arithmetic, as Rust's checked and saturating operations ----

inline std::optional<int64_t> checked_mul(int64_t a, int64_t b)
{
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) {
        return std::nullopt;
    }
    return r;
}

inline int64_t saturating_mul(int64_t a, int64_t b)
{
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) {
        return ((a < 0) != (b < 0)) ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    }
    return r;
}

/// Rust's `f as i64`: saturating, NaN → 0.
inline int64_t f64_as_i64(double x)
{
    if (std::isnan(x)) {
        return 0;
    }
    if (x >= 9223372036854775808.0) {
        return std::numeric_limits<int64_t>::max();
    }
    if (x < -9223372036854775808.0) {
        return std::numeric_limits<int64_t>::min();
    }
    return static_cast<int64_t>(x);
}

/// Rust's `x.fract() == 0.0` (false for NaN and infinities).
inline bool integral(double x) { return std::isfinite(x) && std::trunc(x) == x; }

// ---- a tensor as Rust's TensorDesc sees it ----

inline std::vector<int64_t> shape(const aclTensor* t)
{
    const op::Shape& s = t->GetViewShape();
    std::vector<int64_t> out;
    out.reserve(s.GetDimNum());
    for (size_t i = 0; i < s.GetDimNum(); ++i) {
        out.push_back(s.GetDim(i));
    }
    return out;
}

inline size_t rank(const aclTensor* t) { return t->GetViewShape().GetDimNum(); }

inline std::vector<int64_t> strides(const aclTensor* t)
{
    const op::Strides& s = t->GetViewStrides();
    std::vector<int64_t> out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        out.push_back(s[i]);
    }
    return out;
}

/// The dim at index `dim` (negative = from the end), if the tensor has it.
inline std::optional<int64_t> dim_at(const std::vector<int64_t>& shape, int64_t dim)
{
    int64_t i = dim < 0 ? static_cast<int64_t>(shape.size()) + dim : dim;
    if (i < 0 || static_cast<uint64_t>(i) >= shape.size()) {
        return std::nullopt;
    }
    return shape[static_cast<size_t>(i)];
}

/// "x2[1]" → ("x2", 1); a plain tensor's name → (name, none). As Rust's `usize` parse: an optional
/// '+', then at least one digit, no overflow.
inline std::pair<std::string, std::optional<size_t>> list_element(const std::string& name)
{
    std::pair<std::string, std::optional<size_t>> plain{name, std::nullopt};
    if (name.empty() || name.back() != ']') {
        return plain;
    }
    std::string head = name.substr(0, name.size() - 1);
    size_t open = head.rfind('[');
    if (open == std::string::npos) {
        return plain;
    }
    std::string digits = head.substr(open + 1);
    if (!digits.empty() && digits[0] == '+') {
        digits = digits.substr(1);
    }
    if (digits.empty()) {
        return plain;
    }
    size_t value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') {
            return plain;
        }
        size_t next = 0;
        if (__builtin_mul_overflow(value, static_cast<size_t>(10), &next) ||
            __builtin_add_overflow(next, static_cast<size_t>(c - '0'), &value)) {
            return plain;
        }
    }
    return {head.substr(0, open), value};
}

} // namespace detail

// ---- vocabulary helpers (vocab.rs) ----

/// `DType::size_bytes`: storage size in bytes of one element (sub-byte types round up to 1).
inline size_t size_bytes(op::DataType d)
{
    switch (d) {
        case op::DataType::DT_DOUBLE:
        case op::DataType::DT_INT64:
        case op::DataType::DT_UINT64:
        case op::DataType::DT_COMPLEX64:
            return 8;
        case op::DataType::DT_COMPLEX128:
            return 16;
        case op::DataType::DT_FLOAT:
        case op::DataType::DT_INT32:
        case op::DataType::DT_UINT32:
        case op::DataType::DT_COMPLEX32:
            return 4;
        case op::DataType::DT_FLOAT16:
        case op::DataType::DT_BF16:
        case op::DataType::DT_INT16:
        case op::DataType::DT_UINT16:
            return 2;
        default:
            return 1;
    }
}

/// `Format::is_private`: Ascend's private (5D/fractal) layouts. Formats the Rust vocabulary lacks
/// (C04 and other variants) are opbase's `IsPrivateFormat` of their primary format.
inline bool is_private(op::Format f)
{
    switch (f) {
        case op::Format::FORMAT_NC1HWC0:
        case op::Format::FORMAT_FRACTAL_NZ:
        case op::Format::FORMAT_FRACTAL_Z:
        case op::Format::FORMAT_FRACTAL_Z_3D:
        case op::Format::FORMAT_NDC1HWC0:
            return true;
        case op::Format::FORMAT_ND:
        case op::Format::FORMAT_NCHW:
        case op::Format::FORMAT_NHWC:
        case op::Format::FORMAT_NCDHW:
        case op::Format::FORMAT_NDHWC:
        case op::Format::FORMAT_NCL:
        case op::Format::FORMAT_NC:
        case op::Format::FORMAT_HWCN:
            return false;
        default:
            return op::IsPrivateFormat(op::GetPrimaryFormat(f));
    }
}

/// `Format::allowed_by`: a documented "ND" admits every plain layout.
inline bool allowed_by(op::Format f, const std::vector<op::Format>& allowed)
{
    auto has = [&](op::Format x) { return std::find(allowed.begin(), allowed.end(), x) != allowed.end(); };
    return has(f) || (has(op::Format::FORMAT_ND) && !is_private(f));
}

// ---- TensorDesc's helpers (value.rs) ----

/// `TensorDesc::numel`: number of elements (negative dims count 0), none when it overflows i64.
inline std::optional<int64_t> numel(const aclTensor* t)
{
    int64_t acc = 1;
    for (int64_t d : detail::shape(t)) {
        auto next = detail::checked_mul(acc, std::max<int64_t>(d, 0));
        if (!next) {
            return std::nullopt;
        }
        acc = *next;
    }
    return acc;
}

/// `TensorDesc::is_empty`: some dim is 0.
inline bool is_empty(const aclTensor* t)
{
    auto s = detail::shape(t);
    return std::find(s.begin(), s.end(), 0) != s.end();
}

/// `TensorDesc::is_contiguous`: the view strides describe a row-major contiguous layout (a dim of 1
/// may have any stride).
inline bool is_contiguous(const aclTensor* t)
{
    auto shape = detail::shape(t);
    auto strides = detail::strides(t);
    if (strides.size() != shape.size()) {
        return false;
    }
    int64_t expected = 1;
    for (size_t k = shape.size(); k-- > 0;) {
        if (shape[k] != 1 && strides[k] != expected) {
            return false;
        }
        expected = detail::saturating_mul(expected, shape[k]);
    }
    return true;
}

// ---- arguments ----

/// One argument of an aclnn call, as Rust's `Arg` enum. `Kind::Null` is a null pointer (or no
/// argument at all).
struct Arg {
    enum class Kind { Null, Tensor, TensorList, Scalar, Bool, Int, Float, IntArray, FloatArray, BoolArray, DataType, Str };
    Kind kind = Kind::Null;
    const aclTensor* tensor = nullptr;                          // Tensor
    const aclTensorList* tensor_list = nullptr;                 // TensorList
    op::DataType scalar_dtype = op::DataType::DT_UNDEFINED;     // Scalar
    double scalar_value = 0.0;                                  // Scalar
    bool bool_value = false;                                    // Bool
    int64_t int_value = 0;                                      // Int
    double float_value = 0.0;                                   // Float
    std::vector<int64_t> int_array;                             // IntArray
    std::vector<double> float_array;                            // FloatArray
    std::vector<bool> bool_array;                               // BoolArray
    op::DataType data_type = op::DataType::DT_UNDEFINED;        // DataType
    std::string str;                                            // Str

    static Arg null() { return Arg{}; }
    static Arg scalar(op::DataType dtype, double value)
    {
        Arg a;
        a.kind = Kind::Scalar;
        a.scalar_dtype = dtype;
        a.scalar_value = value;
        return a;
    }
    static Arg boolean(bool v)
    {
        Arg a;
        a.kind = Kind::Bool;
        a.bool_value = v;
        return a;
    }
    static Arg integer(int64_t v)
    {
        Arg a;
        a.kind = Kind::Int;
        a.int_value = v;
        return a;
    }
    static Arg floating(double v)
    {
        Arg a;
        a.kind = Kind::Float;
        a.float_value = v;
        return a;
    }
    static Arg ints(std::vector<int64_t> v)
    {
        Arg a;
        a.kind = Kind::IntArray;
        a.int_array = std::move(v);
        return a;
    }
    static Arg floats(std::vector<double> v)
    {
        Arg a;
        a.kind = Kind::FloatArray;
        a.float_array = std::move(v);
        return a;
    }
    static Arg bools(std::vector<bool> v)
    {
        Arg a;
        a.kind = Kind::BoolArray;
        a.bool_array = std::move(v);
        return a;
    }
    static Arg dtype(op::DataType d)
    {
        Arg a;
        a.kind = Kind::DataType;
        a.data_type = d;
        return a;
    }
    static Arg string(std::string s)
    {
        Arg a;
        a.kind = Kind::Str;
        a.str = std::move(s);
        return a;
    }

    bool is_null() const { return kind == Kind::Null; }

    /// The tensors this argument carries (one, a list, or none).
    std::vector<const aclTensor*> tensors() const
    {
        std::vector<const aclTensor*> out;
        if (kind == Kind::Tensor && tensor != nullptr) {
            out.push_back(tensor);
        } else if (kind == Kind::TensorList && tensor_list != nullptr) {
            for (uint64_t i = 0; i < tensor_list->Size(); ++i) {
                out.push_back((*tensor_list)[i]);
            }
        }
        return out;
    }

    /// The integer value of an integer or scalar attribute (an integral scalar or double counts).
    std::optional<int64_t> as_int() const
    {
        switch (kind) {
            case Kind::Int:
                return int_value;
            case Kind::Scalar:
                if (detail::integral(scalar_value)) {
                    return detail::f64_as_i64(scalar_value);
                }
                return std::nullopt;
            case Kind::Float:
                if (detail::integral(float_value)) {
                    return detail::f64_as_i64(float_value);
                }
                return std::nullopt;
            default:
                return std::nullopt;
        }
    }

    /// The text of a string attribute.
    std::optional<std::string> as_str() const
    {
        if (kind == Kind::Str) {
            return str;
        }
        return std::nullopt;
    }

    /// The numeric value of a scalar-like attribute.
    std::optional<double> as_f64() const
    {
        switch (kind) {
            case Kind::Int:
                return static_cast<double>(int_value);
            case Kind::Float:
                return float_value;
            case Kind::Scalar:
                return scalar_value;
            default:
                return std::nullopt;
        }
    }

    /// The elements of a list attribute, as i64 (bools as 0/1, floats truncated as Rust's `as`).
    std::optional<std::vector<int64_t>> as_int_list() const
    {
        switch (kind) {
            case Kind::IntArray:
                return int_array;
            case Kind::BoolArray: {
                std::vector<int64_t> out;
                for (bool b : bool_array) {
                    out.push_back(b ? 1 : 0);
                }
                return out;
            }
            case Kind::FloatArray: {
                std::vector<int64_t> out;
                for (double x : float_array) {
                    out.push_back(detail::f64_as_i64(x));
                }
                return out;
            }
            default:
                return std::nullopt;
        }
    }

    /// Length of a list argument (array attribute or tensor list).
    std::optional<size_t> list_len() const
    {
        switch (kind) {
            case Kind::IntArray:
                return int_array.size();
            case Kind::FloatArray:
                return float_array.size();
            case Kind::BoolArray:
                return bool_array.size();
            case Kind::TensorList:
                return tensor_list == nullptr ? 0 : static_cast<size_t>(tensor_list->Size());
            default:
                return std::nullopt;
        }
    }
};

/// An aclnn C argument as an `Arg`; a null pointer is `Kind::Null`.
inline Arg arg_of(std::nullptr_t) { return Arg{}; }

inline Arg arg_of(const aclTensor* t)
{
    Arg a;
    if (t != nullptr) {
        a.kind = Arg::Kind::Tensor;
        a.tensor = t;
    }
    return a;
}

inline Arg arg_of(const aclTensorList* ts)
{
    Arg a;
    if (ts != nullptr) {
        a.kind = Arg::Kind::TensorList;
        a.tensor_list = ts;
    }
    return a;
}

inline Arg arg_of(const aclScalar* s)
{
    if (s == nullptr) {
        return Arg{};
    }
    return Arg::scalar(s->GetDataType(), s->ToDouble());
}

/// An aclScalarList is checked as one scalar, as aclgen's Rust side does: its first element (its
/// items share the dtype rules name). A null or empty list is `Kind::Null`.
inline Arg arg_of(const aclScalarList* ss)
{
    if (ss == nullptr || ss->Size() == 0) {
        return Arg{};
    }
    return arg_of((*ss)[0]);
}

inline Arg arg_of(const aclIntArray* v)
{
    if (v == nullptr) {
        return Arg{};
    }
    std::vector<int64_t> out;
    for (uint64_t i = 0; i < v->Size(); ++i) {
        out.push_back((*v)[i]);
    }
    return Arg::ints(std::move(out));
}

inline Arg arg_of(const aclFloatArray* v)
{
    if (v == nullptr) {
        return Arg{};
    }
    std::vector<double> out;
    for (uint64_t i = 0; i < v->Size(); ++i) {
        out.push_back(static_cast<double>((*v)[i]));
    }
    return Arg::floats(std::move(out));
}

inline Arg arg_of(const aclBoolArray* v)
{
    if (v == nullptr) {
        return Arg{};
    }
    std::vector<bool> out;
    for (uint64_t i = 0; i < v->Size(); ++i) {
        out.push_back((*v)[i]);
    }
    return Arg::bools(std::move(out));
}

inline Arg arg_of(bool v) { return Arg::boolean(v); }

/// Every integer type (int, size_t, int8_t ... uint64_t) is an `Int`.
template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value &&
                                        !std::is_same<T, char>::value,
                                    int> = 0>
inline Arg arg_of(T v)
{
    return Arg::integer(static_cast<int64_t>(v));
}

/// `float` and `double` are a `Float`.
template <class T, std::enable_if_t<std::is_floating_point<T>::value, int> = 0>
inline Arg arg_of(T v)
{
    return Arg::floating(static_cast<double>(v));
}

inline Arg arg_of(op::DataType d) { return Arg::dtype(d); }
inline Arg arg_of(aclDataType d) { return Arg::dtype(op::ToOpDataType(d)); }

/// aclFormat is an integer attribute to aclgen (ParamKind::Int).
inline Arg arg_of(aclFormat f) { return Arg::integer(static_cast<int64_t>(f)); }

inline Arg arg_of(const char* s)
{
    if (s == nullptr) {
        return Arg{};
    }
    return Arg::string(s);
}

inline Arg arg_of(const std::string& s) { return Arg::string(s); }

// ---- tensors of parameters ----

/// A single tensor parameter (nullptr: nothing to check).
inline Tensors one(const std::string& name, const aclTensor* t)
{
    Tensors out;
    if (t != nullptr) {
        out.push_back(Named{name, t});
    }
    return out;
}

/// A tensor-list parameter: `name[i]` for element i (nullptr: none). A null element is skipped.
inline Tensors list(const std::string& name, const aclTensorList* ts)
{
    Tensors out;
    if (ts == nullptr) {
        return out;
    }
    for (uint64_t i = 0; i < ts->Size(); ++i) {
        const aclTensor* t = (*ts)[i];
        if (t != nullptr) {
            out.push_back(Named{name + "[" + std::to_string(i) + "]", t});
        }
    }
    return out;
}

/// Several tensor parameters as one list (Rust's `[a, b].concat()`).
inline Tensors concat(std::initializer_list<Tensors> parts)
{
    Tensors out;
    for (const auto& p : parts) {
        out.insert(out.end(), p.begin(), p.end());
    }
    return out;
}

// ---- reading arguments ----

/// An argument read as T by `read`; no value when null, an error naming `what` it is not.
template <class T, class F>
inline Res<T> arg_as(const std::string& name, const Arg& a, F read, const char* what)
{
    if (a.is_null()) {
        return Res<T>{};
    }
    std::optional<T> v = read(a);
    if (!v) {
        return Res<T>{name + " is not " + what, std::nullopt};
    }
    return Res<T>{"", std::move(v)};
}

/// The integer value of a (non-null) argument; no value when null.
inline Res<int64_t> arg_int(const std::string& name, const Arg& a)
{
    return arg_as<int64_t>(name, a, [](const Arg& x) { return x.as_int(); }, "an integer");
}

/// The elements of a list argument as integers; no value when null.
inline Res<std::vector<int64_t>> arg_int_list(const std::string& name, const Arg& a)
{
    return arg_as<std::vector<int64_t>>(name, a, [](const Arg& x) { return x.as_int_list(); }, "an integer list");
}

/// The length of a list argument (array or tensor list); no value when null.
inline Res<size_t> arg_list_len(const std::string& name, const Arg& a)
{
    return arg_as<size_t>(name, a, [](const Arg& x) { return x.list_len(); }, "a list");
}

/// A numeric argument (integer, double or scalar); no value when null.
inline Res<double> arg_number(const std::string& name, const Arg& a)
{
    return arg_as<double>(name, a, [](const Arg& x) { return x.as_f64(); }, "a number");
}

/// Binds a predicate's result to the documented error: logs it with its condition and returns
/// false; true when `err` is empty.
inline bool report(aclnnStatus code, const char* condition, const std::string& err)
{
    if (err.empty()) {
        return true;
    }
    (void)code;
    OP_LOGE(code, "%s: %s", condition, err.c_str());
    return false;
}

/// The product id ("ascend910b", ...) of the SoC this runs on; "" for one aclgen does not know.
inline std::string product()
{
    switch (op::GetCurrentPlatformInfo().GetSocVersion()) {
        case op::SocVersion::ASCEND910:
            return "ascend910";
        case op::SocVersion::ASCEND910B:
            return "ascend910b";
        case op::SocVersion::ASCEND910_93:
            return "ascend910_93";
        case op::SocVersion::ASCEND950:
            return "ascend950";
        case op::SocVersion::ASCEND310P:
            return "ascend310p";
        case op::SocVersion::ASCEND310B:
            return "ascend310b";
        case op::SocVersion::KIRINX90:
        case op::SocVersion::KIRIN9030:
            return "kirin";
        default:
            return "";
    }
}

/// Whether a `When` condition holds: the attribute (or its element `index`) is among `values`
/// (`negate`: is not). A null or absent attribute, or a missing element, never holds.
inline bool when(const Arg& a, std::optional<size_t> index, const std::vector<int64_t>& values, bool negate)
{
    if (a.is_null()) {
        return false;
    }
    std::optional<int64_t> value;
    if (!index) {
        value = a.kind == Arg::Kind::Bool ? std::optional<int64_t>(a.bool_value ? 1 : 0) : a.as_int();
    } else {
        auto list = a.as_int_list();
        if (list && *index < list->size()) {
            value = (*list)[*index];
        }
    }
    if (!value) {
        return false;
    }
    bool in = std::find(values.begin(), values.end(), *value) != values.end();
    return in != negate;
}

/// Whether a `WhenStr` condition holds: the string attribute is one of `values`, compared
/// exactly (`negate`: is none of them). A null or absent attribute, or one of another kind,
/// never holds.
inline bool when_str(const Arg& a, const std::vector<std::string>& values, bool negate)
{
    if (a.is_null()) {
        return false;
    }
    auto v = a.as_str();
    if (!v) {
        return false;
    }
    bool in = std::find(values.begin(), values.end(), *v) != values.end();
    return in != negate;
}

/// Whether a `WhenAnyElem` condition holds: some element of the integer list attribute lies in
/// `[min, max]` (a missing bound is open). A null, absent or empty list, or an argument of
/// another kind, never holds.
inline bool when_any_elem(const Arg& a, std::optional<int64_t> min, std::optional<int64_t> max)
{
    if (a.is_null()) {
        return false;
    }
    auto list = a.as_int_list();
    if (!list) {
        return false;
    }
    return std::any_of(list->begin(), list->end(),
                       [&](int64_t v) { return (!min || v >= *min) && (!max || v <= *max); });
}

/// `TensorState`, the state of an argument a `WhenTensor` holds under.
struct TensorState {
    enum class Kind { Null, Present, Empty, NotEmpty, Rank };
    Kind kind = Kind::Null;
    std::vector<size_t> ranks; // Rank
    bool negate = false;       // Rank
};

/// Whether a `WhenTensor` condition holds: the argument is in `state`. A list of tensors is in a
/// shape state when one is empty (`Empty`) or every one is (the others); an argument that is no
/// tensor is in no shape state.
inline bool when_tensor(const Arg& a, const TensorState& state)
{
    Tensors ts;
    if (a.kind == Arg::Kind::Tensor) {
        ts = one("", a.tensor);
    } else if (a.kind == Arg::Kind::TensorList) {
        ts = list("", a.tensor_list);
    }
    auto every = [&](auto f) {
        return !ts.empty() && std::all_of(ts.begin(), ts.end(), [&](const Named& n) { return f(n.t); });
    };
    switch (state.kind) {
        case TensorState::Kind::Null:
            return a.is_null();
        case TensorState::Kind::Present:
            return !a.is_null();
        case TensorState::Kind::Empty:
            return std::any_of(ts.begin(), ts.end(), [](const Named& n) { return is_empty(n.t); });
        case TensorState::Kind::NotEmpty:
            return every([](const aclTensor* t) { return !is_empty(t); });
        case TensorState::Kind::Rank:
            return every([&](const aclTensor* t) {
                bool in = std::find(state.ranks.begin(), state.ranks.end(), detail::rank(t)) != state.ranks.end();
                return in != state.negate;
            });
    }
    return false;
}

/// The rejection of a rule that expects a tensor and got another kind of argument.
inline std::string not_a_tensor(const std::string& name) { return name + " is not a tensor"; }

inline std::string product_supported(const std::string& product, const std::vector<std::string>& supported)
{
    if (std::find(supported.begin(), supported.end(), product) != supported.end()) {
        return "";
    }
    return "the op does not support product " + product + " (supported: " + detail::join(supported) + ")";
}

inline std::string not_null(const std::string& name, bool present)
{
    return present ? "" : name + " is a null pointer";
}

/// A pointer the doc says must be null (a reserved parameter).
inline std::string is_null(const std::string& name, bool present)
{
    return present ? name + " is not a null pointer" : "";
}

// ---- dtypes ----

/// Whether any of the tensors has one of `dtypes` (the condition of a `WhenDtype`).
inline bool has_dtype(const Tensors& ts, const std::vector<op::DataType>& dtypes)
{
    for (const auto& n : ts) {
        if (std::find(dtypes.begin(), dtypes.end(), n.t->GetDataType()) != dtypes.end()) {
            return true;
        }
    }
    return false;
}

namespace detail {
inline std::string unsupported_dtype(const std::string& name, op::DataType dtype, const std::string& product,
                                     const std::vector<op::DataType>& allowed)
{
    return name + " has dtype " + dtype_name(dtype) + " which " + product + " does not support here (supported: " +
           join(allowed) + ")";
}

inline bool contains(const std::vector<op::DataType>& v, op::DataType d)
{
    return std::find(v.begin(), v.end(), d) != v.end();
}
} // namespace detail

/// A rule's dtype list on each product the doc gives one for (products with one list share it).
using DtypesByProduct = std::vector<std::pair<std::string, const std::vector<op::DataType>*>>;

/// The list `table` gives `product`; nullptr where the doc gives none.
inline const std::vector<op::DataType>* dtypes_on(const DtypesByProduct& table, const std::string& product)
{
    for (const auto& entry : table) {
        if (entry.first == product) {
            return entry.second;
        }
    }
    return nullptr;
}

/// `allowed` is the product's list; nullptr means the doc gives none for this product.
inline std::string dtype_in(const Tensors& ts, const std::vector<op::DataType>* allowed, const std::string& product)
{
    if (allowed == nullptr) {
        return "";
    }
    for (const auto& n : ts) {
        if (!detail::contains(*allowed, n.t->GetDataType())) {
            return detail::unsupported_dtype(n.name, n.t->GetDataType(), product, *allowed);
        }
    }
    return "";
}

/// `dtype_in` for an `aclScalar` argument (a null one holds no dtype).
inline std::string scalar_dtype_in(const std::string& name, const Arg& a, const std::vector<op::DataType>* allowed,
                                   const std::string& product)
{
    if (a.kind == Arg::Kind::Scalar && allowed != nullptr && !detail::contains(*allowed, a.scalar_dtype)) {
        return detail::unsupported_dtype(name, a.scalar_dtype, product, *allowed);
    }
    return "";
}

/// Every tensor has the dtype the `aclDataType` argument `name` holds (absent: not checked).
inline std::string dtype_is_arg(const Tensors& ts, const std::string& name, const Arg& a)
{
    if (a.is_null()) {
        return "";
    }
    op::DataType want = a.data_type;
    if (a.kind == Arg::Kind::Int) {
        // An integer attribute holding an aclDataType number ("dstType = 27").
        if (!dtype_of_acl_number(a.int_value, &want)) {
            return name + " = " + std::to_string(a.int_value) + " is no aclDataType";
        }
    } else if (a.kind != Arg::Kind::DataType) {
        return name + " is not an aclDataType";
    }
    for (const auto& n : ts) {
        if (n.t->GetDataType() != want) {
            return n.name + " has dtype " + dtype_name(n.t->GetDataType()) + " but " + name + " is " + dtype_name(want);
        }
    }
    return "";
}

namespace detail {
/// Every tensor has the first one's `key`; the message names both.
template <class K>
inline std::string same_by(const Tensors& ts, const char* what, K key)
{
    if (ts.empty()) {
        return "";
    }
    std::string want = key(ts[0].t);
    for (const auto& n : ts) {
        std::string k = key(n.t);
        if (k != want) {
            return n.name + " has " + what + " " + k + " but " + ts[0].name + " has " + want;
        }
    }
    return "";
}
} // namespace detail

inline std::string dtype_same(const Tensors& ts)
{
    return detail::same_by(ts, "dtype", [](const aclTensor* t) { return std::string(dtype_name(t->GetDataType())); });
}

/// Promotion category: bool < integral < floating < complex; none for types that do not promote.
inline std::optional<uint8_t> category(op::DataType d)
{
    switch (d) {
        case op::DataType::DT_BOOL:
            return 0;
        case op::DataType::DT_UINT8:
        case op::DataType::DT_INT8:
        case op::DataType::DT_INT16:
        case op::DataType::DT_INT32:
        case op::DataType::DT_INT64:
        case op::DataType::DT_UINT16:
        case op::DataType::DT_UINT32:
        case op::DataType::DT_UINT64:
            return 1;
        case op::DataType::DT_FLOAT16:
        case op::DataType::DT_BF16:
        case op::DataType::DT_FLOAT:
        case op::DataType::DT_DOUBLE:
            return 2;
        case op::DataType::DT_COMPLEX64:
        case op::DataType::DT_COMPLEX128:
            return 3;
        default:
            return std::nullopt;
    }
}

/// The common dtype of two dtypes by aclnn's (PyTorch's) promotion table, if any.
inline std::optional<op::DataType> promote(op::DataType a, op::DataType b)
{
    using D = op::DataType;
    if (a == b) {
        return a;
    }
    auto oa = category(a);
    auto ob = category(b);
    if (!oa || !ob) {
        return std::nullopt;
    }
    uint8_t ca = *oa;
    uint8_t cb = *ob;
    if (ca != cb) {
        D hi = ca > cb ? a : b;
        D lo = ca > cb ? b : a;
        if (hi == D::DT_COMPLEX64 && lo == D::DT_DOUBLE) {
            return D::DT_COMPLEX128;
        }
        return hi;
    }
    auto is_signed = [](D d) { return d == D::DT_INT8 || d == D::DT_INT16 || d == D::DT_INT32 || d == D::DT_INT64; };
    if ((a == D::DT_FLOAT16 && b == D::DT_BF16) || (a == D::DT_BF16 && b == D::DT_FLOAT16)) {
        return D::DT_FLOAT;
    }
    if ((a == D::DT_UINT8 && b == D::DT_INT8) || (a == D::DT_INT8 && b == D::DT_UINT8)) {
        return D::DT_INT16;
    }
    if (a == D::DT_UINT8 && is_signed(b)) {
        return b;
    }
    if (b == D::DT_UINT8 && is_signed(a)) {
        return a;
    }
    if (ca == 1 && is_signed(a) != is_signed(b)) {
        return std::nullopt;
    }
    return size_bytes(a) >= size_bytes(b) ? a : b;
}

/// Whether a value of dtype `from` may be cast to `to`: never down a category
/// (float → integer, complex → real, anything → bool).
inline bool can_cast(op::DataType from, op::DataType to)
{
    if (from == to) {
        return true;
    }
    auto f = category(from);
    auto t = category(to);
    return f && t && *f <= *t;
}

/// A scalar argument's dtype with the label messages use (its parameter name).
struct NamedScalar {
    std::string name;
    op::DataType dtype;
};
using Scalars = std::vector<NamedScalar>;

/// The `aclScalar` arguments among `(name, argument)` pairs (null ones hold no dtype).
inline Scalars scalars(std::initializer_list<std::pair<std::string, Arg>> args)
{
    Scalars out;
    for (const auto& a : args) {
        if (a.second.kind == Arg::Kind::Scalar) {
            out.push_back(NamedScalar{a.first, a.second.scalar_dtype});
        }
    }
    return out;
}

/// The dtype of tensors promoted to `t` with a scalar of dtype `s`, by CANN's tensor–scalar rule
/// (`CombineCategoriesWithComplex(tensor, GetScalarDefaultDtype(scalar))` of ops-math's
/// `aclnn_mul.cpp`); see the Rust `pred::promote_with_scalar`.
inline std::optional<op::DataType> promote_with_scalar(op::DataType t, op::DataType s)
{
    using D = op::DataType;
    auto ot = category(t);
    auto os = category(s);
    if (!ot || !os) {
        return std::nullopt;
    }
    if (*os <= *ot) {
        return t;
    }
    if (*os == 3) {
        return (*ot == 2 && t == D::DT_DOUBLE) ? D::DT_COMPLEX128 : D::DT_COMPLEX64;
    }
    if (*os == 2) {
        return D::DT_FLOAT;
    }
    return s;
}

namespace detail {
inline Res<op::DataType> promoted(const Tensors& ts, const Scalars& ss = Scalars())
{
    auto fail = [&](op::DataType d, const std::string& name, op::DataType acc) {
        std::string names;
        for (const auto& n : ts) {
            names += (names.empty() ? "" : ", ") + n.name;
        }
        for (const auto& n : ss) {
            names += (names.empty() ? "" : ", ") + n.name;
        }
        return Res<op::DataType>{"the dtypes of " + names + " do not promote: " + dtype_name(d) + " (" + name +
                                     ") has no common type with " + dtype_name(acc),
                                 std::nullopt};
    };
    std::optional<op::DataType> acc;
    for (const auto& n : ts) {
        op::DataType d = n.t->GetDataType();
        if (!acc) {
            acc = d;
            continue;
        }
        auto p = promote(*acc, d);
        if (!p) {
            return fail(d, n.name, *acc);
        }
        acc = p;
    }
    // Scalars alone (no tensor among the operands) promote among themselves.
    const bool with_tensors = acc.has_value();
    for (const auto& n : ss) {
        if (!acc) {
            acc = n.dtype;
            continue;
        }
        auto p = with_tensors ? promote_with_scalar(*acc, n.dtype) : promote(*acc, n.dtype);
        if (!p) {
            return fail(n.dtype, n.name, *acc);
        }
        acc = p;
    }
    return Res<op::DataType>{"", acc};
}
} // namespace detail

/// The promoted dtype of the tensors; none when there are none or they do not promote (which is
/// `dtype_promotable`'s concern).
inline std::optional<op::DataType> promoted_dtype(const Tensors& ts)
{
    auto r = detail::promoted(ts);
    return r.ok() ? r.value : std::nullopt;
}

/// `promoted_dtype` of tensors and `aclScalar` arguments.
inline std::optional<op::DataType> promoted_dtype_with(const Tensors& ts, const Scalars& ss)
{
    auto r = detail::promoted(ts, ss);
    return r.ok() ? r.value : std::nullopt;
}

/// A scalar argument's dtype casts to `to` (nothing to check without a scalar or a target).
inline std::string scalar_castable(const std::string& name, const Arg& a, std::optional<op::DataType> to)
{
    if (a.kind == Arg::Kind::Scalar && to && !can_cast(a.scalar_dtype, *to)) {
        return name + " has dtype " + dtype_name(a.scalar_dtype) + ", which cannot be cast to " + dtype_name(*to);
    }
    return "";
}

inline std::string dtype_promotable(const Tensors& ts) { return detail::promoted(ts).err; }

/// `dtype_promotable` of tensors and `aclScalar` arguments.
inline std::string dtype_promotable_with(const Tensors& ts, const Scalars& ss) { return detail::promoted(ts, ss).err; }

/// `dtype_castable` where `aclScalar` arguments take part in the promotion.
inline std::string dtype_castable_with(const Tensors& from, const Scalars& scalars, const Tensors& to)
{
    auto r = detail::promoted(from, scalars);
    if (!r.ok()) {
        return r.err;
    }
    if (!r.value) {
        return "";
    }
    op::DataType p = *r.value;
    for (const auto& n : to) {
        if (!can_cast(p, n.t->GetDataType())) {
            return std::string("the promoted dtype ") + dtype_name(p) + " cannot be cast to " + n.name + "'s dtype " +
                   dtype_name(n.t->GetDataType());
        }
    }
    return "";
}

inline std::string dtype_castable(const Tensors& from, const Tensors& to) { return dtype_castable_with(from, Scalars(), to); }

// ---- formats ----

inline std::string format_in(const Tensors& ts, const std::vector<op::Format>& allowed)
{
    for (const auto& n : ts) {
        op::Format f = n.t->GetStorageFormat();
        if (!allowed_by(f, allowed)) {
            return n.name + " has format " + format_name(f) + " (supported: " + detail::join(allowed) + ")";
        }
    }
    return "";
}

inline std::string format_same(const Tensors& ts)
{
    return detail::same_by(ts, "format",
                           [](const aclTensor* t) { return std::string(format_name(t->GetStorageFormat())); });
}

// ---- ranks and shapes ----

inline std::string rank_in(const Tensors& ts, size_t min, size_t max)
{
    for (const auto& n : ts) {
        size_t r = detail::rank(n.t);
        if (r < min || r > max) {
            return n.name + " has " + std::to_string(r) + " dims (supported: " +
                   (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)) + ")";
        }
    }
    return "";
}

inline std::string rank_same(const Tensors& ts)
{
    return detail::same_by(ts, "rank", [](const aclTensor* t) { return std::to_string(detail::rank(t)); });
}

inline std::string shape_same(const Tensors& ts)
{
    auto key = [](const aclTensor* t) { return detail::list_text(detail::shape(t)); };
    std::set<std::string> bases;
    bool all_plain = true;
    for (const auto& n : ts) {
        auto e = detail::list_element(n.name);
        bases.insert(e.first);
        if (e.second) {
            all_plain = false;
        }
    }
    if (bases.size() < 2 || all_plain) {
        return detail::same_by(ts, "shape", key);
    }
    // Tensor lists are matched element by element (x1[i] with x2[i]); a plain tensor matches every
    // element.
    Tensors plain;
    std::set<size_t> indices;
    for (const auto& n : ts) {
        auto e = detail::list_element(n.name);
        if (e.second) {
            indices.insert(*e.second);
        } else {
            plain.push_back(n);
        }
    }
    for (size_t i : indices) {
        Tensors group = plain;
        for (const auto& n : ts) {
            auto e = detail::list_element(n.name);
            if (e.second && *e.second == i) {
                group.push_back(n);
            }
        }
        std::string err = detail::same_by(group, "shape", key);
        if (!err.empty()) {
            return err;
        }
    }
    return "";
}

/// Each tensor's shape (or its last `list.size()` dims, when `trailing`) equals `list` (nullptr: not
/// checked).
inline std::string shape_matches_list(const Tensors& ts, const std::string& list_name,
                                      const std::vector<int64_t>* list, bool trailing)
{
    if (list == nullptr) {
        return "";
    }
    for (const auto& n : ts) {
        auto shape = detail::shape(n.t);
        bool ok = false;
        if (trailing) {
            ok = shape.size() >= list->size() && std::equal(list->begin(), list->end(), shape.end() - list->size());
        } else {
            ok = shape == *list;
        }
        if (!ok) {
            return n.name + " shape " + detail::list_text(shape) + " does not match " + list_name + " " +
                   detail::list_text(*list) + (trailing ? " in its last dims" : "");
        }
    }
    return "";
}

inline std::string shape_matches_list(const Tensors& ts, const std::string& list_name,
                                      const std::optional<std::vector<int64_t>>& list, bool trailing)
{
    return shape_matches_list(ts, list_name, list ? &*list : nullptr, trailing);
}

namespace detail {
/// Each of `ts` has the shape `derive` gives of each `base` tensor's (`how` says how, in the
/// message); a base `derive` gives none for is another rule's concern.
template <typename Derive>
inline std::string each_shape_derived(const Tensors& ts, const Tensors& base, const std::string& how, Derive derive)
{
    for (const auto& b : base) {
        auto bshape = shape(b.t);
        std::optional<std::vector<int64_t>> want = derive(bshape);
        if (!want) {
            continue;
        }
        for (const auto& n : ts) {
            auto got = shape(n.t);
            if (got != *want) {
                return n.name + " has shape " + list_text(got) + " but " + b.name + " " + list_text(bshape) + " " +
                       how + " gives " + list_text(*want);
            }
        }
    }
    return "";
}
} // namespace detail

/// Each of `ts` has `base`'s shape with its last `list.size()` dims replaced by `list`'s values. A
/// null list or base, or a base with fewer dims than the list, is another rule's concern.
inline std::string shape_from_list(const Tensors& ts, const Tensors& base, const std::string& list_name,
                                   const std::vector<int64_t>* list)
{
    if (list == nullptr) {
        return "";
    }
    auto with_list = [&](const std::vector<int64_t>& b) -> std::optional<std::vector<int64_t>> {
        if (b.size() < list->size()) {
            return std::nullopt;
        }
        std::vector<int64_t> want(b.begin(), b.end() - static_cast<std::ptrdiff_t>(list->size()));
        want.insert(want.end(), list->begin(), list->end());
        return want;
    };
    return detail::each_shape_derived(ts, base, "with " + list_name + " " + detail::list_text(*list), with_list);
}
inline std::string shape_from_list(const Tensors& ts, const Tensors& base, const std::string& list_name,
                                   const std::optional<std::vector<int64_t>>& list)
{
    return shape_from_list(ts, base, list_name, list ? &*list : nullptr);
}

/// `base` padded by `list`: pairs from the last dim on (`list[2i]`, `list[2i+1]` add to dim `-1-i`),
/// as PyTorch's `pad` reads them. None for a list of odd length or longer than two per dim of `base`.
inline std::optional<std::vector<int64_t>> padded_shape(const std::vector<int64_t>& base,
                                                        const std::vector<int64_t>& list)
{
    if (list.size() % 2 != 0 || list.size() / 2 > base.size()) {
        return std::nullopt;
    }
    std::vector<int64_t> want = base;
    for (size_t i = 0; i < list.size() / 2; ++i) {
        want[base.size() - 1 - i] += list[2 * i] + list[2 * i + 1];
    }
    return want;
}

/// Each of `ts` has `base`'s shape padded by `list` (`padded_shape`). A null list or base, or a list
/// `padded_shape` cannot apply, is another rule's concern.
inline std::string shape_padded(const Tensors& ts, const Tensors& base, const std::string& list_name,
                                const std::vector<int64_t>* list)
{
    if (list == nullptr) {
        return "";
    }
    auto padded = [&](const std::vector<int64_t>& b) { return padded_shape(b, *list); };
    return detail::each_shape_derived(ts, base, "padded by " + list_name + " " + detail::list_text(*list), padded);
}

inline std::string shape_padded(const Tensors& ts, const Tensors& base, const std::string& list_name,
                                const std::optional<std::vector<int64_t>>& list)
{
    return shape_padded(ts, base, list_name, list ? &*list : nullptr);
}

/// `base`'s shape reduced over `dims` (negative from the end, a repeated dim reduced once), each
/// reduced dim kept as 1 when `keep`; an empty `dims` reduces every dim. No value when a dim lies
/// outside `base` (a 0-d base takes 0 and -1, as PyTorch's reductions do).
inline std::optional<std::vector<int64_t>> reduced_shape(const std::vector<int64_t>& base,
                                                         const std::vector<int64_t>& dims, bool keep)
{
    const int64_t rank = std::max<int64_t>(static_cast<int64_t>(base.size()), 1);
    std::vector<bool> reduced(static_cast<size_t>(rank), dims.empty());
    for (int64_t d : dims) {
        int64_t at = d < 0 ? d + rank : d;
        if (at < 0 || at >= rank) {
            return std::nullopt;
        }
        reduced[static_cast<size_t>(at)] = true;
    }
    std::vector<int64_t> want;
    for (size_t i = 0; i < base.size(); ++i) {
        if (!reduced[i]) {
            want.push_back(base[i]);
        } else if (keep) {
            want.push_back(1);
        }
    }
    return want;
}

/// Each of `ts` has `base`'s shape reduced over `dims` (`reduced_shape`), kept as 1s when `keep` is
/// 1. A null or empty `dims`, a null `keep` or an empty base states nothing (CANN accepts a 0-d
/// result of an empty dims list with keepdim, and any result of an empty base); a dim out of range is
/// another rule's concern.
inline std::string shape_reduced(const Tensors& ts, const Tensors& base, const std::string& dims_name,
                                 const std::optional<std::vector<int64_t>>& dims,
                                 const std::optional<std::vector<int64_t>>& keep)
{
    if (!dims || dims->empty() || !keep || keep->size() != 1) {
        return "";
    }
    const bool kept = (*keep)[0] != 0;
    auto reduced = [&](const std::vector<int64_t>& b) -> std::optional<std::vector<int64_t>> {
        if (std::find(b.begin(), b.end(), 0) != b.end()) {
            return std::nullopt;
        }
        return reduced_shape(b, *dims, kept);
    };
    return detail::each_shape_derived(ts, base, "reduced over " + dims_name + " " + detail::list_text(*dims), reduced);
}

/// Dim `ld` of every `lhs` tensor equals dim `rd` of every `rhs` tensor (negative = from the end).
inline std::string dims_equal(const Tensors& lhs, int64_t ld, const Tensors& rhs, int64_t rd)
{
    for (const auto& l : lhs) {
        for (const auto& r : rhs) {
            auto ls = detail::shape(l.t);
            auto a = detail::dim_at(ls, ld);
            if (!a) {
                return l.name + " has no dim " + std::to_string(ld) + " (rank " + std::to_string(ls.size()) + ")";
            }
            auto rs = detail::shape(r.t);
            auto b = detail::dim_at(rs, rd);
            if (!b) {
                return r.name + " has no dim " + std::to_string(rd) + " (rank " + std::to_string(rs.size()) + ")";
            }
            if (*a != *b) {
                return l.name + " dim " + std::to_string(ld) + " is " + std::to_string(*a) + " but " + r.name +
                       " dim " + std::to_string(rd) + " is " + std::to_string(*b);
            }
        }
    }
    return "";
}

/// Dim `dim` (negative = from the end) of every tensor is a multiple of `by`; a tensor without that
/// dim passes.
inline std::string dim_multiple_of(const Tensors& ts, int64_t dim, int64_t by)
{
    for (const auto& n : ts) {
        auto x = detail::dim_at(detail::shape(n.t), dim);
        if (!x) {
            continue;
        }
        // A `by` of 0 is not checked; x % -1 is 0 (and would overflow for i64::MIN).
        if (by != 0 && by != -1 && *x % by != 0) {
            return n.name + " dim " + std::to_string(dim) + " is " + std::to_string(*x) + ", not a multiple of " +
                   std::to_string(by);
        }
    }
    return "";
}

/// "[1, 256]", "≥ 1", "≤ 4096".
inline std::string bounds_text(std::optional<int64_t> min, std::optional<int64_t> max)
{
    if (min && max) {
        return "[" + std::to_string(*min) + ", " + std::to_string(*max) + "]";
    }
    if (min) {
        return "\u2265 " + std::to_string(*min);
    }
    if (max) {
        return "\u2264 " + std::to_string(*max);
    }
    return "any size";
}

/// Dim `dim` (negative = from the end) of every tensor lies in `[min, max]`; a tensor without that
/// dim is skipped.
inline std::string dim_in_range(const Tensors& ts, int64_t dim, std::optional<int64_t> min,
                                std::optional<int64_t> max)
{
    for (const auto& n : ts) {
        auto x = detail::dim_at(detail::shape(n.t), dim);
        if (!x) {
            continue;
        }
        if ((min && *x < *min) || (max && *x > *max)) {
            return n.name + " dim " + std::to_string(dim) + " is " + std::to_string(*x) + ", outside " +
                   bounds_text(min, max);
        }
    }
    return "";
}

/// The channel axis of a tensor: the last for channels-last formats (NHWC, NDHWC), else the second.
inline size_t channel_axis(const aclTensor* t)
{
    op::Format f = t->GetStorageFormat();
    if (f == op::Format::FORMAT_NHWC || f == op::Format::FORMAT_NDHWC) {
        size_t r = detail::rank(t);
        return r == 0 ? 0 : r - 1;
    }
    return 1;
}

/// The channel axis of a tensor whose layout an attribute names ("NHWC", "NCHW", "NDHWC"): the last
/// dim for a channels-last name, else the second; a name of no layout gives none.
inline std::optional<size_t> layout_channel_axis(const aclTensor* t, const std::string& layout)
{
    size_t b = 0;
    size_t e = layout.size();
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (b < e && space(layout[b])) {
        ++b;
    }
    while (e > b && space(layout[e - 1])) {
        --e;
    }
    std::string name = layout.substr(b, e - b);
    for (char& c : name) {
        if (c >= 'a' && c <= 'z') {
            c = static_cast<char>(c - 'a' + 'A');
        }
    }
    if (name.empty() || name[0] != 'N' || name.find('C') == std::string::npos || name.size() < 2) {
        return std::nullopt;
    }
    if (name.back() == 'C') {
        size_t r = detail::rank(t);
        return r == 0 ? 0 : r - 1;
    }
    return static_cast<size_t>(1);
}

/// Dim `dim` (negative = from the end) of every `ts` tensor equals the channel axis of every `of`
/// tensor (by `layout` when a layout attribute names it, else by the tensor's format); a tensor
/// without the dim (or the channel axis) passes.
inline std::string dim_matches_channel(const Tensors& ts, int64_t dim, const Tensors& of,
                                       const std::optional<std::string>& layout)
{
    for (const auto& o : of) {
        std::optional<size_t> by_layout = layout ? layout_channel_axis(o.t, *layout) : std::nullopt;
        size_t axis = by_layout ? *by_layout : channel_axis(o.t);
        auto oshape = detail::shape(o.t);
        if (axis >= oshape.size()) {
            continue;
        }
        int64_t c = oshape[axis];
        for (const auto& n : ts) {
            auto x = detail::dim_at(detail::shape(n.t), dim);
            if (!x) {
                continue;
            }
            if (*x != c) {
                std::string l = layout ? *layout : std::string(format_name(o.t->GetStorageFormat()));
                return n.name + " dim " + std::to_string(dim) + " is " + std::to_string(*x) + " but " + o.name +
                       "'s channel axis (dim " + std::to_string(axis) + ", " + l + ") is " + std::to_string(c);
            }
        }
    }
    return "";
}

/// `dim_matches_channel` with a C string layout (nullptr: none).
inline std::string dim_matches_channel(const Tensors& ts, int64_t dim, const Tensors& of, const char* layout)
{
    return dim_matches_channel(ts, dim, of, layout == nullptr ? std::nullopt : std::optional<std::string>(layout));
}

/// Dim `dim` (negative = from the end of each tensor) of every `lhs` tensor times `den` equals the
/// same dim of every `rhs` tensor times `num`; a tensor without the dim passes.
inline std::string dims_scaled(const Tensors& lhs, const Tensors& rhs, int64_t dim, int64_t num, int64_t den)
{
    for (const auto& l : lhs) {
        for (const auto& r : rhs) {
            auto a = detail::dim_at(detail::shape(l.t), dim);
            auto b = detail::dim_at(detail::shape(r.t), dim);
            if (!a || !b) {
                continue;
            }
            if (detail::checked_mul(*a, den) != detail::checked_mul(*b, num)) {
                return l.name + " dim " + std::to_string(dim) + " is " + std::to_string(*a) + " but " + r.name +
                       " dim " + std::to_string(dim) + " is " + std::to_string(*b) + " (expected " +
                       std::to_string(num) + "/" + std::to_string(den) + " of it)";
            }
        }
    }
    return "";
}

/// Every `lhs` tensor has the rank of every `rhs` tensor and the same dims except `dim` (negative =
/// from the end).
inline std::string shape_same_except(const Tensors& lhs, const Tensors& rhs, int64_t dim)
{
    for (const auto& l : lhs) {
        for (const auto& r : rhs) {
            auto ls = detail::shape(l.t);
            auto rs = detail::shape(r.t);
            if (ls.size() != rs.size()) {
                return l.name + " has rank " + std::to_string(ls.size()) + " but " + r.name + " has rank " +
                       std::to_string(rs.size());
            }
            int64_t skip = dim < 0 ? static_cast<int64_t>(ls.size()) + dim : dim;
            for (size_t i = 0; i < ls.size(); ++i) {
                if (static_cast<int64_t>(i) != skip && ls[i] != rs[i]) {
                    return l.name + " shape " + detail::list_text(ls) + " differs from " + r.name + " shape " +
                           detail::list_text(rs) + " at dim " + std::to_string(i) + ", not only at dim " +
                           std::to_string(dim);
                }
            }
        }
    }
    return "";
}

/// Every dim of each `lhs` tensor is at most the same dim of each `rhs` tensor of its rank, but dim
/// `except` (negative = from the end).
inline std::string dims_at_most(const Tensors& lhs, const Tensors& rhs, std::optional<int64_t> except)
{
    for (const auto& l : lhs) {
        auto ls = detail::shape(l.t);
        for (const auto& r : rhs) {
            auto rs = detail::shape(r.t);
            if (rs.size() != ls.size()) {
                continue;
            }
            std::optional<int64_t> skip;
            if (except) {
                skip = *except < 0 ? static_cast<int64_t>(ls.size()) + *except : *except;
            }
            for (size_t i = 0; i < ls.size(); ++i) {
                if (!(skip && *skip == static_cast<int64_t>(i)) && ls[i] > rs[i]) {
                    return l.name + " dim " + std::to_string(i) + " is " + std::to_string(ls[i]) + " but " + r.name +
                           " dim " + std::to_string(i) + " is " + std::to_string(rs[i]);
                }
            }
        }
    }
    return "";
}

namespace detail {
inline std::string broadcast_one(const std::string& fname, const aclTensor* f, const std::string& tname,
                                 const aclTensor* t, const std::vector<int64_t>* dims)
{
    auto fs = shape(f);
    auto ts = shape(t);
    auto fail = [&](const std::string& why) {
        return fname + " shape " + list_text(fs) + " does not broadcast to " + tname + " shape " + list_text(ts) +
               ": " + why;
    };
    // Without named dims, numpy rules: `from` may have fewer dims, aligned from the end. Named dims
    // are positions of one shared rank.
    size_t lead = 0;
    if (dims == nullptr && fs.size() <= ts.size()) {
        lead = ts.size() - fs.size();
    } else if (fs.size() != ts.size()) {
        return fail(std::to_string(fs.size()) + " dims vs " + std::to_string(ts.size()));
    }
    int64_t rank = static_cast<int64_t>(ts.size());
    for (size_t k = 0; k < fs.size() && k + lead < ts.size(); ++k) {
        int64_t a = fs[k];
        int64_t b = ts[k + lead];
        if (a == b) {
            continue;
        }
        int64_t i = static_cast<int64_t>(k + lead);
        bool may_differ = true;
        if (dims != nullptr) {
            may_differ = std::any_of(dims->begin(), dims->end(), [&](int64_t d) { return d == i || d + rank == i; });
        }
        if (!may_differ) {
            return fail("dim " + std::to_string(i) + " must be equal (" + std::to_string(a) + " vs " +
                        std::to_string(b) + ")");
        }
        if (a != 1) {
            return fail("dim " + std::to_string(i) + " is " + std::to_string(a) + ", neither 1 nor " +
                        std::to_string(b));
        }
    }
    return "";
}
} // namespace detail

/// Each `from` tensor broadcasts one-way to each `to` tensor; when `dims` is given (negative = from
/// the end), only those dims may differ.
inline std::string broadcastable(const Tensors& from, const Tensors& to, const std::vector<int64_t>* dims)
{
    for (const auto& f : from) {
        for (const auto& t : to) {
            std::string err = detail::broadcast_one(f.name, f.t, t.name, t.t, dims);
            if (!err.empty()) {
                return err;
            }
        }
    }
    return "";
}

inline std::string broadcastable(const Tensors& from, const Tensors& to, const std::optional<std::vector<int64_t>>& dims)
{
    return broadcastable(from, to, dims ? &*dims : nullptr);
}

/// The tensors broadcast together: aligned from the end, every dim is 1 or the common size.
inline std::string broadcast_together(const Tensors& ts)
{
    size_t rank = 0;
    for (const auto& n : ts) {
        rank = std::max(rank, detail::rank(n.t));
    }
    for (size_t i = 0; i < rank; ++i) {
        std::optional<std::pair<int64_t, std::string>> size;
        for (const auto& n : ts) {
            auto s = detail::shape(n.t);
            if (i + s.size() < rank) {
                continue;
            }
            int64_t d = s[i + s.size() - rank];
            if (d == 1) {
                continue;
            }
            if (!size) {
                size = std::make_pair(d, n.name);
            } else if (size->first != d) {
                return n.name + " and " + size->second + " do not broadcast: " + std::to_string(d) + " vs " +
                       std::to_string(size->first) + " at dim " + std::to_string(i) +
                       " from the left of the broadcast shape";
            }
        }
    }
    return "";
}

/// Each `out` tensor has the shape the `ts` broadcast to.
inline std::string broadcast_shape(const Tensors& ts, const Tensors& out)
{
    std::string err = broadcast_together(ts);
    if (!err.empty()) {
        return err;
    }
    size_t rank = 0;
    for (const auto& n : ts) {
        rank = std::max(rank, detail::rank(n.t));
    }
    std::vector<int64_t> shape;
    for (size_t i = 0; i < rank; ++i) {
        int64_t size = 1;
        for (const auto& n : ts) {
            auto s = detail::shape(n.t);
            if (i + s.size() < rank) {
                continue;
            }
            int64_t d = s[i + s.size() - rank];
            if (d != 1) {
                size = d;
                break;
            }
        }
        shape.push_back(size);
    }
    for (const auto& o : out) {
        auto os = detail::shape(o.t);
        if (os != shape) {
            std::string inputs;
            for (size_t k = 0; k < ts.size(); ++k) {
                inputs += (k > 0 ? ", " : "") + ts[k].name;
            }
            return o.name + " has shape " + detail::list_text(os) + " but " + inputs + " broadcast to " +
                   detail::list_text(shape);
        }
    }
    return "";
}

/// Lists (named with their lengths) of one length.
inline std::string list_len_same(const std::vector<std::pair<std::string, size_t>>& lens)
{
    if (lens.empty()) {
        return "";
    }
    for (const auto& l : lens) {
        if (l.second != lens[0].second) {
            return l.first + " has length " + std::to_string(l.second) + " but " + lens[0].first + " has " +
                   std::to_string(lens[0].second);
        }
    }
    return "";
}

inline std::string dims_positive(const Tensors& ts, bool allow_zero)
{
    for (const auto& n : ts) {
        auto s = detail::shape(n.t);
        for (size_t i = 0; i < s.size(); ++i) {
            if (allow_zero ? s[i] < 0 : s[i] <= 0) {
                return n.name + " dim " + std::to_string(i) + " is " + std::to_string(s[i]) + " (must be " +
                       (allow_zero ? ">= 0" : "> 0") + ")";
            }
        }
    }
    return "";
}

inline std::string not_empty(const Tensors& ts)
{
    for (const auto& n : ts) {
        if (is_empty(n.t)) {
            return n.name + " is an empty tensor (shape " + detail::list_text(detail::shape(n.t)) + ")";
        }
    }
    return "";
}

inline std::string numel_in(const Tensors& ts, const std::vector<int64_t>& values)
{
    for (const auto& n : ts) {
        auto c = numel(n.t);
        if (!c || std::find(values.begin(), values.end(), *c) == values.end()) {
            return n.name + " has " + (c ? std::to_string(*c) : std::string("too many")) +
                   " elements (supported: " + detail::join(values) + ")";
        }
    }
    return "";
}

inline std::string contiguous(const Tensors& ts)
{
    for (const auto& n : ts) {
        if (!is_contiguous(n.t)) {
            return n.name + " is not contiguous (strides " + detail::list_text(detail::strides(n.t)) + ")";
        }
    }
    return "";
}

inline std::string list_len_in(const std::string& name, size_t len, const std::vector<size_t>& lens)
{
    if (std::find(lens.begin(), lens.end(), len) != lens.end()) {
        return "";
    }
    std::vector<uint64_t> l(lens.begin(), lens.end());
    return name + " has length " + std::to_string(len) + " (supported: " + detail::join(l) + ")";
}

// ---- values of attributes ----

namespace detail {
inline std::string range_text(std::optional<int64_t> min, std::optional<int64_t> max)
{
    std::string lo = min ? std::to_string(*min) : "-inf";
    std::string hi = max ? std::to_string(*max) : "inf";
    return "[" + lo + ", " + hi + "]";
}

inline bool in_range(int64_t v, std::optional<int64_t> min, std::optional<int64_t> max)
{
    return !(min && v < *min) && !(max && v > *max);
}
} // namespace detail

inline std::string list_elems_in_range(const std::string& name, const std::vector<int64_t>& elems,
                                       std::optional<int64_t> min, std::optional<int64_t> max)
{
    for (size_t i = 0; i < elems.size(); ++i) {
        if (!detail::in_range(elems[i], min, max)) {
            return name + "[" + std::to_string(i) + "] is " + std::to_string(elems[i]) + ", outside " +
                   detail::range_text(min, max);
        }
    }
    return "";
}

inline std::string list_unique(const std::string& name, const std::vector<int64_t>& elems)
{
    for (size_t i = 0; i < elems.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            if (elems[j] == elems[i]) {
                return name + "[" + std::to_string(j) + "] and " + name + "[" + std::to_string(i) + "] are both " +
                       std::to_string(elems[i]);
            }
        }
    }
    return "";
}

inline std::string int_in_range(const std::string& name, int64_t v, std::optional<int64_t> min,
                                std::optional<int64_t> max)
{
    if (detail::in_range(v, min, max)) {
        return "";
    }
    return name + " is " + std::to_string(v) + ", outside " + detail::range_text(min, max);
}

/// An integer attribute (a bool as 0/1), or each element of a list attribute; no value when null.
inline Res<std::vector<int64_t>> arg_ints(const std::string& name, const Arg& a)
{
    if (a.is_null()) {
        return Res<std::vector<int64_t>>{};
    }
    if (a.kind == Arg::Kind::Bool) {
        return Res<std::vector<int64_t>>{"", std::vector<int64_t>{a.bool_value ? 1 : 0}};
    }
    if (auto v = a.as_int()) {
        return Res<std::vector<int64_t>>{"", std::vector<int64_t>{*v}};
    }
    if (auto vs = a.as_int_list()) {
        return Res<std::vector<int64_t>>{"", std::move(vs)};
    }
    return Res<std::vector<int64_t>>{name + " is not an integer", std::nullopt};
}

/// A range check on a number (integer or floating) or on every element of a list attribute. Null
/// arguments pass.
inline std::string value_in_range(const std::string& name, const Arg& a, std::optional<int64_t> min,
                                  std::optional<int64_t> max)
{
    if (a.is_null()) {
        return "";
    }
    if (auto v = a.as_int()) {
        return int_in_range(name, *v, min, max);
    }
    if (auto x = a.as_f64()) {
        bool ok = (!min || *x >= static_cast<double>(*min)) && (!max || *x <= static_cast<double>(*max));
        return ok ? "" : name + " is " + detail::f64_text(*x) + ", outside " + detail::range_text(min, max);
    }
    if (auto vs = a.as_int_list()) {
        for (int64_t v : *vs) {
            std::string err = int_in_range(name, v, min, max);
            if (!err.empty()) {
                return err;
            }
        }
        return "";
    }
    return name + " is not a number";
}

/// The number (or each element of a list) is not `value`; a null argument is not checked.
inline std::string value_not(const std::string& name, const Arg& a, int64_t value)
{
    if (a.is_null()) {
        return "";
    }
    bool hit = false;
    if (auto v = a.as_int()) {
        hit = *v == value;
    } else if (auto x = a.as_f64()) {
        hit = *x == static_cast<double>(value);
    } else if (auto vs = a.as_int_list()) {
        hit = std::find(vs->begin(), vs->end(), value) != vs->end();
    } else {
        return name + " is not a number";
    }
    return hit ? name + " is " + std::to_string(value) + ", which is not supported" : "";
}

inline std::string int_in(const std::string& name, int64_t v, const std::vector<int64_t>& values)
{
    if (std::find(values.begin(), values.end(), v) != values.end()) {
        return "";
    }
    return name + " is " + std::to_string(v) + " (supported: " + detail::join(values) + ")";
}

/// A string attribute's text; no value when null.
inline Res<std::string> arg_str(const std::string& name, const Arg& a)
{
    return arg_as<std::string>(name, a, [](const Arg& x) { return x.as_str(); }, "a string");
}

/// The string attribute is one of `values`, compared exactly.
inline std::string str_in(const std::string& name, const std::string& v, const std::vector<std::string>& values)
{
    if (std::find(values.begin(), values.end(), v) != values.end()) {
        return "";
    }
    std::string supported;
    for (size_t i = 0; i < values.size(); ++i) {
        supported += (i > 0 ? ", \"" : "\"") + values[i] + "\"";
    }
    return name + " is \"" + v + "\" (supported: " + supported + ")";
}

/// Each element of `list` is below the dim of the first tensor it pads: pairs from the last dim on
/// (`list[2i]`, `list[2i+1]` pad dim `-1-i`). A null list or tensor, or a list of odd length or
/// longer than two per dim, is another rule's concern.
inline std::string pads_below_dims(const std::string& name, const std::vector<int64_t>* list, const Tensors& ts)
{
    if (list == nullptr || ts.empty()) {
        return "";
    }
    auto shape = detail::shape(ts.at(0).t);
    if (list->size() % 2 != 0 || list->size() / 2 > shape.size()) {
        return "";
    }
    for (size_t i = 0; i < list->size(); ++i) {
        int64_t dim = shape[shape.size() - 1 - i / 2];
        if ((*list)[i] >= dim) {
            return name + "[" + std::to_string(i) + "] = " + std::to_string((*list)[i]) + " is not below dim " +
                   std::to_string(-1 - static_cast<int64_t>(i / 2)) + " of " + ts.at(0).name + " (" +
                   std::to_string(dim) + ")";
        }
    }
    return "";
}

inline std::string pads_below_dims(const std::string& name, const std::optional<std::vector<int64_t>>& list,
                                   const Tensors& ts)
{
    return pads_below_dims(name, list ? &*list : nullptr, ts);
}

/// The attribute (an integer, or each element of a list) is a dim index of the first tensor:
/// `[-rank, rank-1]`, with a 0-dim tensor indexed like a 1-dim one. Null arguments pass.
inline std::string axis_in(const std::string& name, const Arg& a, const Tensors& ts)
{
    if (ts.empty() || a.is_null()) {
        return "";
    }
    std::vector<int64_t> values;
    if (auto v = a.as_int()) {
        values.push_back(*v);
    } else if (auto vs = a.as_int_list()) {
        values = *vs;
    } else {
        return name + " is not an integer";
    }
    size_t rank = detail::rank(ts[0].t);
    int64_t r = static_cast<int64_t>(std::max<size_t>(rank, 1));
    for (int64_t v : values) {
        if (v < -r || v >= r) {
            return name + " = " + std::to_string(v) + " is not a dim of " + ts[0].name + " (rank " +
                   std::to_string(rank) + "): allowed [" + std::to_string(-r) + ", " + std::to_string(r - 1) + "]";
        }
    }
    return "";
}

/// `lhs <= rhs` for two numeric attributes (integers or doubles); a null one is not checked.
inline std::string value_at_most(const std::string& lhs_name, const Arg& lhs, const std::string& rhs_name,
                                 const Arg& rhs)
{
    auto l = arg_number(lhs_name, lhs);
    if (!l.ok()) {
        return l.err;
    }
    auto r = arg_number(rhs_name, rhs);
    if (!r.ok()) {
        return r.err;
    }
    if (l.value && r.value && *l.value > *r.value) {
        return lhs_name + " = " + detail::f64_text(*l.value) + " exceeds " + rhs_name + " = " +
               detail::f64_text(*r.value);
    }
    return "";
}

// ---- ProductsEqual ----

/// A tensor factor of `ProductsEqual`: dim `dim` of the tensor (negative = from the end).
inline std::optional<int64_t> factor_dim(const Tensors& ts, int64_t dim)
{
    if (ts.empty()) {
        return std::nullopt;
    }
    return detail::dim_at(detail::shape(ts[0].t), dim);
}

/// The product of the tensor's dims from `from` on (1 when it has no more); none on overflow.
inline std::optional<int64_t> factor_dims_from(const Tensors& ts, size_t from)
{
    if (ts.empty()) {
        return std::nullopt;
    }
    auto s = detail::shape(ts[0].t);
    int64_t acc = 1;
    for (size_t i = from; i < s.size(); ++i) {
        auto next = detail::checked_mul(acc, s[i]);
        if (!next) {
            return std::nullopt;
        }
        acc = *next;
    }
    return acc;
}

inline std::optional<int64_t> factor_numel(const Tensors& ts)
{
    if (ts.empty()) {
        return std::nullopt;
    }
    return numel(ts[0].t);
}

/// A factor's value: unknown (no value) or an argument of the wrong kind (`err`).
using FactorValue = Res<int64_t>;

/// A known-or-unknown factor (`factor_dim` ...) as a `FactorValue` (Rust's `Ok(..)`).
inline FactorValue factor(std::optional<int64_t> v) { return FactorValue{"", v}; }

/// The products of two lists of factors are equal; any unknown factor skips the check.
inline std::string products_equal(const std::string& lhs_text, const std::vector<FactorValue>& lhs,
                                  const std::string& rhs_text, const std::vector<FactorValue>& rhs)
{
    auto product = [](const std::vector<FactorValue>& fs) -> Res<int64_t> {
        std::optional<int64_t> acc = 1;
        for (const auto& f : fs) {
            if (!f.ok()) {
                return Res<int64_t>{f.err, std::nullopt};
            }
            if (acc && f.value) {
                acc = detail::checked_mul(*acc, *f.value);
            } else {
                acc = std::nullopt;
            }
        }
        return Res<int64_t>{"", acc};
    };
    auto l = product(lhs);
    if (!l.ok()) {
        return l.err;
    }
    auto r = product(rhs);
    if (!r.ok()) {
        return r.err;
    }
    if (l.value && r.value && *l.value != *r.value) {
        return lhs_text + " is " + std::to_string(*l.value) + " but " + rhs_text + " is " + std::to_string(*r.value);
    }
    return "";
}

/// Integer attribute `name` is a multiple of integer attribute `by_name` (a `by` of 0 is not checked).
inline std::string attr_multiple_of(const std::string& name, const Arg& value, const std::string& by_name,
                                    const Arg& by)
{
    auto v = arg_int(name, value);
    if (!v.ok()) {
        return v.err;
    }
    auto b = arg_int(by_name, by);
    if (!b.ok()) {
        return b.err;
    }
    if (v.value && b.value && *b.value != 0 && *b.value != -1 && *v.value % *b.value != 0) {
        return name + " = " + std::to_string(*v.value) + " is not a multiple of " + by_name + " = " +
               std::to_string(*b.value);
    }
    return "";
}

/// Element-wise `num * lhs[i] <= den * rhs[i]`; a missing element repeats the list's first (aclnn
/// expands length-1 lists). Empty lists are not checked.
inline std::string list_elems_at_most_fraction(const std::string& lhs_name, const std::vector<int64_t>& lhs,
                                               const std::string& rhs_name, const std::vector<int64_t>& rhs,
                                               int64_t num, int64_t den)
{
    if (lhs.empty() || rhs.empty()) {
        return "";
    }
    size_t n = std::max(lhs.size(), rhs.size());
    for (size_t i = 0; i < n; ++i) {
        int64_t l = i < lhs.size() ? lhs[i] : lhs[0];
        int64_t r = i < rhs.size() ? rhs[i] : rhs[0];
        __extension__ typedef __int128 i128;
        if (static_cast<i128>(num) * static_cast<i128>(l) > static_cast<i128>(den) * static_cast<i128>(r)) {
            return lhs_name + "[" + std::to_string(i) + "] = " + std::to_string(l) + " exceeds " +
                   std::to_string(den) + "/" + std::to_string(num) + " of " + rhs_name + "[" + std::to_string(i) +
                   "] = " + std::to_string(r);
        }
    }
    return "";
}

/// The product of the trailing `dims` dims (all dims when the rank is smaller) is at most `max`.
inline std::string element_count_max(const Tensors& ts, size_t dims, int64_t max)
{
    for (const auto& n : ts) {
        auto s = detail::shape(n.t);
        size_t skip = s.size() > dims ? s.size() - dims : 0;
        std::vector<int64_t> tail(s.begin() + skip, s.end());
        std::optional<int64_t> count = 1;
        for (int64_t d : tail) {
            count = detail::checked_mul(*count, std::max<int64_t>(d, 0));
            if (!count) {
                break;
            }
        }
        if (!count || *count > max) {
            return n.name + ": the product of its last " + std::to_string(dims) + " dims " + detail::list_text(tail) +
                   " exceeds " + std::to_string(max);
        }
    }
    return "";
}

} // namespace pred
} // namespace aclgen

#endif // ACLGEN_CHECK_H
