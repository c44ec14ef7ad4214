//! The C types of aclnn prototypes, parsed once into typed values (as cbindgen parses a C type
//! into its `Type`): every stage matches on [`CType::base`] or [`ParamKind`], none on the
//! type's spelling. The spelling is kept only to print it back (`show`, headers, diagnostics).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A type name of aclnn prototypes, without `const` and pointers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    Tensor,
    TensorList,
    Scalar,
    ScalarList,
    IntArray,
    FloatArray,
    BoolArray,
    Executor,
    Stream,
    DataType,
    Format,
    Void,
    Bool,
    Char,
    Float,
    Double,
    /// `int`, `size_t` and the fixed-width integers.
    Integer(Integer),
    /// Not an aclnn C type (a doc typo such as `onst aclTensor`): `OpIr::generation_problems`
    /// refuses it at the prototype's line.
    Unknown,
}

/// The integer types of prototypes; the spelling matters for generated C (`int8_t cubeMathType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Integer {
    Int,
    Size,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

/// Every known type name with its spelling: the one table of C type names.
const NAMES: &[(&str, Base)] = &[
    ("aclTensor", Base::Tensor),
    ("aclTensorList", Base::TensorList),
    ("aclScalar", Base::Scalar),
    ("aclScalarList", Base::ScalarList),
    ("aclIntArray", Base::IntArray),
    ("aclFloatArray", Base::FloatArray),
    ("aclBoolArray", Base::BoolArray),
    ("aclOpExecutor", Base::Executor),
    ("aclrtStream", Base::Stream),
    ("aclDataType", Base::DataType),
    ("aclFormat", Base::Format),
    ("void", Base::Void),
    ("bool", Base::Bool),
    ("char", Base::Char),
    ("float", Base::Float),
    ("double", Base::Double),
    ("int", Base::Integer(Integer::Int)),
    ("size_t", Base::Integer(Integer::Size)),
    ("int8_t", Base::Integer(Integer::I8)),
    ("int16_t", Base::Integer(Integer::I16)),
    ("int32_t", Base::Integer(Integer::I32)),
    ("int64_t", Base::Integer(Integer::I64)),
    ("uint8_t", Base::Integer(Integer::U8)),
    ("uint16_t", Base::Integer(Integer::U16)),
    ("uint32_t", Base::Integer(Integer::U32)),
    ("uint64_t", Base::Integer(Integer::U64)),
];

impl Base {
    fn parse(name: &str) -> Base {
        NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Base::Unknown, |(_, b)| *b)
    }

    /// Whether `word` names an aclnn C type (for the "missing comma" hint of a glued type).
    pub fn is_known_name(word: &str) -> bool {
        Base::parse(word) != Base::Unknown
    }
}

/// What a parameter is, as every stage needs to know it: decided from the C type alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParamKind {
    Tensor,
    TensorList,
    /// `aclScalar*`: a host value with a dtype of its own.
    Scalar,
    /// `aclScalarList*`: host values, each with a dtype. No dtype lists attach to it.
    ScalarList,
    IntArray,
    FloatArray,
    BoolArray,
    /// A string (`char*`, `const char*`).
    Str,
    Bool,
    /// An integer passed by value (`int64_t`, `int8_t cubeMathType`, `aclFormat`).
    Int,
    /// A floating-point number passed by value (`float`, `double`).
    Float,
    /// An `aclDataType` passed by value.
    DataType,
    /// `uint64_t* workspaceSize`, `aclOpExecutor**`, `void* workspace`, `aclrtStream`, or a
    /// pointer to a plain value: nothing a validator checks the value of.
    Plumbing,
    /// Not an aclnn C type.
    Unknown,
}

impl ParamKind {
    /// Passed by pointer, so it may be null.
    pub fn is_pointer(self) -> bool {
        !matches!(
            self,
            ParamKind::Bool | ParamKind::Int | ParamKind::Float | ParamKind::DataType
        )
    }

    /// An integer list or a scalar by value: the kinds integer rules (`IntIn`, ranges) apply to.
    pub fn is_integer(self) -> bool {
        self == ParamKind::Int
    }

    /// An array attribute (`aclIntArray`, `aclFloatArray`, `aclBoolArray`).
    pub fn is_array(self) -> bool {
        matches!(
            self,
            ParamKind::IntArray | ParamKind::FloatArray | ParamKind::BoolArray
        )
    }

    /// A host value carrying a dtype (`aclScalar`, `aclScalarList`).
    pub fn is_scalar_like(self) -> bool {
        matches!(self, ParamKind::Scalar | ParamKind::ScalarList)
    }
}

/// A prototype's C type: spelled canonically (`const aclTensor*`) and parsed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CType {
    spelling: String,
    base: Base,
    is_const: bool,
    pointers: usize,
}

impl Default for CType {
    fn default() -> CType {
        CType::new("")
    }
}

impl CType {
    /// Parses a canonical spelling (`proto::canonical_type` makes one from a doc's text).
    pub fn new(spelling: impl Into<String>) -> CType {
        let spelling = spelling.into();
        let words = words(&spelling);
        let base = match words.as_slice() {
            [one] => Base::parse(one),
            _ => Base::Unknown,
        };
        let is_const = spelling
            .split(|c: char| c.is_whitespace() || c == '*')
            .any(|w| w == "const");
        let pointers = spelling.matches('*').count();
        CType {
            spelling,
            base,
            is_const,
            pointers,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.spelling
    }

    /// The type name without `const` and pointers.
    pub fn base(&self) -> Base {
        self.base
    }

    /// `const`-qualified (`const aclTensor*`, `const char*`).
    pub fn is_const(&self) -> bool {
        self.is_const
    }

    /// Levels of pointer (`aclOpExecutor**` → 2).
    pub fn pointers(&self) -> usize {
        self.pointers
    }

    /// The spelling without `const` and spaces: `const aclrtStream` → `aclrtStream`,
    /// `aclOpExecutor **` → `aclOpExecutor**`.
    pub fn bare(&self) -> String {
        words(&self.spelling).join(" ") + &"*".repeat(self.pointers())
    }

    /// The spelling without qualifiers and pointers: `const aclIntArray*` → `aclIntArray`.
    pub fn name(&self) -> String {
        words(&self.spelling).join(" ")
    }

    /// What a parameter of this type is.
    pub fn kind(&self) -> ParamKind {
        let pointers = self.pointers();
        match (self.base(), pointers) {
            (Base::Tensor, 1) => ParamKind::Tensor,
            (Base::TensorList, 1) => ParamKind::TensorList,
            (Base::Scalar, 1) => ParamKind::Scalar,
            (Base::ScalarList, 1) => ParamKind::ScalarList,
            (Base::IntArray, 1) => ParamKind::IntArray,
            (Base::FloatArray, 1) => ParamKind::FloatArray,
            (Base::BoolArray, 1) => ParamKind::BoolArray,
            (Base::Char, 1) => ParamKind::Str,
            (Base::DataType, 0) => ParamKind::DataType,
            (Base::Bool, 0) => ParamKind::Bool,
            (Base::Float | Base::Double, 0) => ParamKind::Float,
            (Base::Integer(_) | Base::Format, 0) => ParamKind::Int,
            (Base::Unknown, _) => ParamKind::Unknown,
            _ => ParamKind::Plumbing,
        }
    }
}

/// The words of a spelling other than `const` (`const aclTensor *` → `["aclTensor"]`).
fn words(spelling: &str) -> Vec<&str> {
    spelling
        .split(|c: char| c.is_whitespace() || c == '*')
        .filter(|t| !t.is_empty() && *t != "const")
        .collect()
}

impl fmt::Display for CType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelling)
    }
}

impl From<&str> for CType {
    fn from(s: &str) -> CType {
        CType::new(s)
    }
}

impl From<String> for CType {
    fn from(s: String) -> CType {
        CType::new(s)
    }
}

impl PartialEq<str> for CType {
    fn eq(&self, other: &str) -> bool {
        self.spelling == other
    }
}

impl PartialEq<&str> for CType {
    fn eq(&self, other: &&str) -> bool {
        self.spelling == *other
    }
}

impl Serialize for CType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.spelling)
    }
}

impl<'de> Deserialize<'de> for CType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CType, D::Error> {
        String::deserialize(d).map(CType::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(s: &str) -> ParamKind {
        CType::from(s).kind()
    }

    #[test]
    fn every_prototype_type_has_one_kind() {
        assert_eq!(kind("const aclTensor*"), ParamKind::Tensor);
        assert_eq!(kind("aclTensor *"), ParamKind::Tensor);
        assert_eq!(kind("const aclTensorList*"), ParamKind::TensorList);
        assert_eq!(kind("const aclScalar*"), ParamKind::Scalar);
        assert_eq!(kind("const aclScalarList*"), ParamKind::ScalarList);
        assert_eq!(kind("const aclIntArray*"), ParamKind::IntArray);
        assert_eq!(kind("aclFloatArray*"), ParamKind::FloatArray);
        assert_eq!(kind("const aclBoolArray*"), ParamKind::BoolArray);
        assert_eq!(kind("const char*"), ParamKind::Str);
        assert_eq!(kind("char*"), ParamKind::Str);
        assert_eq!(kind("aclDataType"), ParamKind::DataType);
        assert_eq!(kind("bool"), ParamKind::Bool);
        assert_eq!(kind("double"), ParamKind::Float);
        assert_eq!(kind("int8_t"), ParamKind::Int);
        assert_eq!(kind("aclFormat"), ParamKind::Int);
        assert_eq!(kind("uint64_t*"), ParamKind::Plumbing);
        assert_eq!(kind("aclOpExecutor**"), ParamKind::Plumbing);
        assert_eq!(kind("const aclrtStream"), ParamKind::Plumbing);
        assert_eq!(kind("onst aclTensor*"), ParamKind::Unknown);
        assert_eq!(kind("unsigned long*"), ParamKind::Unknown);
    }

    #[test]
    fn spelling_round_trips_and_parts_are_read() {
        let t = CType::from("const aclOpExecutor **");
        assert_eq!(t.as_str(), "const aclOpExecutor **");
        assert_eq!(t.bare(), "aclOpExecutor**");
        assert_eq!(t.name(), "aclOpExecutor");
        assert_eq!(t.pointers(), 2);
        assert!(t.is_const());
        assert_eq!(t.base(), Base::Executor);
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, "\"const aclOpExecutor **\"");
        assert_eq!(serde_json::from_str::<CType>(&json).unwrap(), t);
        assert_eq!(CType::from("unsigned long*").bare(), "unsigned long*");
    }
}
