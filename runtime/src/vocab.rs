//! The closed vocabularies of aclnn: data types, formats and products.
//!
//! Docs spell these in many ways; `parse` accepts the spellings found in CANN docs and
//! returns `None` for anything else, so the reader can report the unknown token.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! vocab_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal $(| $alias:literal)*),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical spelling used in the IR, JSON and generated code.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// The canonical spelling and every alias `parse` takes.
            pub fn spellings(self) -> &'static [&'static str] {
                match self { $($name::$variant => &[$text $(, $alias)*]),+ }
            }

            /// Parses a canonical spelling or a known alias (case-insensitive).
            pub fn parse(token: &str) -> Option<Self> {
                let t = token.trim();
                $(
                    if t.eq_ignore_ascii_case($text) $(|| t.eq_ignore_ascii_case($alias))* {
                        return Some($name::$variant);
                    }
                )+
                None
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// CANN's names of one dtype or format, one per output that spells it; `None` where CANN has no
/// such value (HFLOAT32 is a compute mode, aclDataType has no QINT8, no header has NLC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spelling {
    /// The `aclDataType`/`aclFormat` enumerator and its value (runtime's `acl/acl_base_rt.h`).
    pub acl: Option<(&'static str, i32)>,
    /// The `ge::DataType`/`ge::Format` enumerator, without `ge::`, and its value (metadef's
    /// `graph/types.h`, `c_types.h`).
    pub ge: Option<(&'static str, i32)>,
    /// msOpGen's name in an op JSON (`float16`, `ND`).
    pub msopgen: Option<&'static str>,
}

/// One vocabulary with every spelling of each value: the doc's (with the aliases `parse` takes)
/// and CANN's, in one row, so no output keeps a table of its own.
macro_rules! spelled_vocab {
    ($(#[$meta:meta])* $name:ident {
        $($variant:ident = $text:literal $(| $alias:literal)* => $acl:expr, $ge:expr, $ms:expr;)+
    }) => {
        vocab_enum! { $(#[$meta])* $name { $($variant = $text $(| $alias)*),+ } }

        impl $name {
            /// CANN's spellings of this value.
            pub fn spelling(self) -> Spelling {
                match self {
                    $($name::$variant => Spelling { acl: $acl, ge: $ge, msopgen: $ms }),+
                }
            }

            /// The `ACL_…` enumerator, where CANN has one.
            pub fn acl_name(self) -> Option<&'static str> {
                self.spelling().acl.map(|(n, _)| n)
            }

            /// The value of the `ACL_…` enumerator, where CANN has one.
            pub fn acl_value(self) -> Option<i32> {
                self.spelling().acl.map(|(_, v)| v)
            }

            /// The `ge::…` enumerator OpDef and kernels use (`ge::DT_FLOAT`), where CANN has one.
            pub fn ge_name(self) -> Option<String> {
                self.spelling().ge.map(|(n, _)| format!("ge::{n}"))
            }

            /// msOpGen's name, where it has one.
            pub fn msopgen_name(self) -> Option<&'static str> {
                self.spelling().msopgen
            }

            /// The value an `ACL_…` enumerator names.
            pub fn from_acl_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.acl_name() == Some(name))
            }

            /// The value of an `ACL_…` enumerator's number.
            pub fn from_acl_value(value: i32) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.acl_value() == Some(value))
            }

            /// The value a `ge::…` enumerator names (with or without `ge::`).
            pub fn from_ge_name(name: &str) -> Option<Self> {
                let bare = name.strip_prefix("ge::").unwrap_or(name);
                Self::ALL.iter().copied().find(|v| v.spelling().ge.map(|(n, _)| n) == Some(bare))
            }

            /// The value of an msOpGen name, or of one of the aliases msOpGen's documentation
            /// and examples use (`float` and `fp32` for `float32`, `fp16` and `half` for
            /// `float16`, `bf16` for `bfloat16`).
            pub fn from_msopgen(name: &str) -> Option<Self> {
                let name = match name {
                    "float" | "fp32" => "float32",
                    "fp16" | "half" => "float16",
                    "bf16" => "bfloat16",
                    other => other,
                };
                Self::ALL.iter().copied().find(|v| v.msopgen_name() == Some(name))
            }
        }
    };
}

spelled_vocab! {
    /// `aclDataType`, spelled as the docs spell it (FLOAT is an alias of FLOAT32). `UNDEFINED` is
    /// `ACL_DT_UNDEFINED`, a tensor whose dtype was never set: no doc allows it, so every dtype
    /// rule rejects it, as aclnn does.
    DType {
        // doc name and aliases                 aclDataType                      ge::DataType                       msOpGen
        Float32 = "FLOAT32" | "FLOAT" | "FP32" => Some(("ACL_FLOAT", 0)), Some(("DT_FLOAT", 0)), Some("float32");
        Float16 = "FLOAT16" | "FP16" | "HALF" => Some(("ACL_FLOAT16", 1)), Some(("DT_FLOAT16", 1)), Some("float16");
        BFloat16 = "BFLOAT16" | "BF16" => Some(("ACL_BF16", 27)), Some(("DT_BF16", 27)), Some("bfloat16");
        Float64 = "DOUBLE" | "FLOAT64" => Some(("ACL_DOUBLE", 11)), Some(("DT_DOUBLE", 11)), Some("double");
        // A cube compute mode (cubeMathType texts), not a dtype any tensor has.
        HFloat32 = "HFLOAT32" => None, None, None;
        Int4 = "INT4" => Some(("ACL_INT4", 29)), Some(("DT_INT4", 29)), Some("int4");
        Int8 = "INT8" => Some(("ACL_INT8", 2)), Some(("DT_INT8", 2)), Some("int8");
        Int16 = "INT16" => Some(("ACL_INT16", 6)), Some(("DT_INT16", 6)), Some("int16");
        Int32 = "INT32" => Some(("ACL_INT32", 3)), Some(("DT_INT32", 3)), Some("int32");
        Int64 = "INT64" => Some(("ACL_INT64", 9)), Some(("DT_INT64", 9)), Some("int64");
        UInt1 = "UINT1" => Some(("ACL_UINT1", 30)), Some(("DT_UINT1", 30)), Some("uint1");
        UInt8 = "UINT8" => Some(("ACL_UINT8", 4)), Some(("DT_UINT8", 4)), Some("uint8");
        UInt16 = "UINT16" => Some(("ACL_UINT16", 7)), Some(("DT_UINT16", 7)), Some("uint16");
        UInt32 = "UINT32" => Some(("ACL_UINT32", 8)), Some(("DT_UINT32", 8)), Some("uint32");
        UInt64 = "UINT64" => Some(("ACL_UINT64", 10)), Some(("DT_UINT64", 10)), Some("uint64");
        Bool = "BOOL" => Some(("ACL_BOOL", 12)), Some(("DT_BOOL", 12)), Some("bool");
        Complex32 = "COMPLEX32" => Some(("ACL_COMPLEX32", 33)), Some(("DT_COMPLEX32", 33)), Some("complex32");
        Complex64 = "COMPLEX64" => Some(("ACL_COMPLEX64", 16)), Some(("DT_COMPLEX64", 16)), Some("complex64");
        Complex128 = "COMPLEX128" => Some(("ACL_COMPLEX128", 17)), Some(("DT_COMPLEX128", 17)), Some("complex128");
        String = "STRING" => Some(("ACL_STRING", 13)), Some(("DT_STRING", 13)), Some("string");
        HiFloat8 = "HIFLOAT8" | "HIF8" => Some(("ACL_HIFLOAT8", 34)), Some(("DT_HIFLOAT8", 34)), Some("hifloat8");
        Float8E4M3Fn = "FLOAT8_E4M3FN" | "FLOAT8_E4M3" | "FLOAT_E4M3FN" => Some(("ACL_FLOAT8_E4M3FN", 36)), Some(("DT_FLOAT8_E4M3FN", 36)), Some("float8_e4m3fn");
        Float8E5M2 = "FLOAT8_E5M2" | "FLOAT_E5M2" => Some(("ACL_FLOAT8_E5M2", 35)), Some(("DT_FLOAT8_E5M2", 35)), Some("float8_e5m2");
        Float8E8M0 = "FLOAT8_E8M0" => Some(("ACL_FLOAT8_E8M0", 37)), Some(("DT_FLOAT8_E8M0", 37)), Some("float8_e8m0");
        Float4E2M1 = "FLOAT4_E2M1" => Some(("ACL_FLOAT4_E2M1", 40)), Some(("DT_FLOAT4_E2M1", 40)), Some("float4_e2m1");
        Float4E1M2 = "FLOAT4_E1M2" => Some(("ACL_FLOAT4_E1M2", 41)), Some(("DT_FLOAT4_E1M2", 41)), Some("float4_e1m2");
        // ge and msOpGen have QINT8; aclDataType does not.
        QInt8 = "QINT8" => None, Some(("DT_QINT8", 18)), Some("qint8");
        // ACL_DT_UNDEFINED is -1, ge's DT_UNDEFINED 28.
        Undefined = "UNDEFINED" | "DT_UNDEFINED" => Some(("ACL_DT_UNDEFINED", -1)), Some(("DT_UNDEFINED", 28)), None;
    }
}

impl DType {
    /// Storage size in bytes of one element (sub-byte types round up to 1).
    pub fn size_bytes(self) -> usize {
        use DType::*;
        match self {
            Float64 | Int64 | UInt64 | Complex64 => 8,
            Complex128 => 16,
            Float32 | HFloat32 | Int32 | UInt32 | Complex32 => 4,
            Float16 | BFloat16 | Int16 | UInt16 => 2,
            _ => 1,
        }
    }

    /// The C type a host value of the dtype is held in (`int8_t`, `float`; FLOAT16 and BFLOAT16
    /// as their bits, `uint16_t`). `None`: no scalar C type holds one.
    pub fn host_c_type(self) -> Option<&'static str> {
        use DType::*;
        Some(match self {
            Bool => "bool",
            Float32 => "float",
            Float64 => "double",
            Float16 | BFloat16 => "uint16_t",
            Int8 => "int8_t",
            Int16 => "int16_t",
            Int32 => "int32_t",
            Int64 => "int64_t",
            UInt8 => "uint8_t",
            UInt16 => "uint16_t",
            UInt32 => "uint32_t",
            UInt64 => "uint64_t",
            _ => return None,
        })
    }

    /// The Ascend C element type of a tensor of the dtype in a kernel: `half`, `bfloat16_t`,
    /// BOOL as `uint8_t` (its bytes in global memory), the others as on the host.
    pub fn kernel_c_type(self) -> Option<&'static str> {
        match self {
            DType::Float16 => Some("half"),
            DType::BFloat16 => Some("bfloat16_t"),
            DType::Bool => Some("uint8_t"),
            other => other.host_c_type(),
        }
    }

    /// False for spellings that name a compute mode rather than a tensor's element type
    /// (HFLOAT32 appears in cubeMathType texts) or that aclDataType lacks.
    pub fn is_tensor_dtype(self) -> bool {
        !matches!(self, DType::HFloat32 | DType::QInt8 | DType::Undefined)
    }
}

spelled_vocab! {
    /// `aclFormat`.
    Format {
        // doc name                        aclFormat                             ge::Format                             msOpGen
        Nd = "ND" => Some(("ACL_FORMAT_ND", 2)), Some(("FORMAT_ND", 2)), Some("ND");
        Nchw = "NCHW" => Some(("ACL_FORMAT_NCHW", 0)), Some(("FORMAT_NCHW", 0)), Some("NCHW");
        Nhwc = "NHWC" => Some(("ACL_FORMAT_NHWC", 1)), Some(("FORMAT_NHWC", 1)), Some("NHWC");
        Ncdhw = "NCDHW" => Some(("ACL_FORMAT_NCDHW", 30)), Some(("FORMAT_NCDHW", 30)), Some("NCDHW");
        Ndhwc = "NDHWC" => Some(("ACL_FORMAT_NDHWC", 27)), Some(("FORMAT_NDHWC", 27)), Some("NDHWC");
        Ncl = "NCL" => Some(("ACL_FORMAT_NCL", 47)), Some(("FORMAT_NCL", 47)), Some("NCL");
        // Docs name it; neither aclFormat nor ge::Format has it (such tensors are ND in CANN).
        Nlc = "NLC" => None, None, None;
        Nc = "NC" => Some(("ACL_FORMAT_NC", 35)), Some(("FORMAT_NC", 35)), Some("NC");
        Hwcn = "HWCN" => Some(("ACL_FORMAT_HWCN", 16)), Some(("FORMAT_HWCN", 16)), Some("HWCN");
        Nc1hwc0 = "NC1HWC0" => Some(("ACL_FORMAT_NC1HWC0", 3)), Some(("FORMAT_NC1HWC0", 3)), Some("NC1HWC0");
        FractalNz = "FRACTAL_NZ" | "NZ" => Some(("ACL_FORMAT_FRACTAL_NZ", 29)), Some(("FORMAT_FRACTAL_NZ", 29)), Some("FRACTAL_NZ");
        FractalZ = "FRACTAL_Z" => Some(("ACL_FORMAT_FRACTAL_Z", 4)), Some(("FORMAT_FRACTAL_Z", 4)), Some("FRACTAL_Z");
        // acl_base_rt.h spells this one without FORMAT_.
        FractalZ3d = "FRACTAL_Z_3D" => Some(("ACL_FRACTAL_Z_3D", 33)), Some(("FORMAT_FRACTAL_Z_3D", 33)), Some("FRACTAL_Z_3D");
        Ndc1hwc0 = "NDC1HWC0" => Some(("ACL_FORMAT_NDC1HWC0", 32)), Some(("FORMAT_NDC1HWC0", 32)), Some("NDC1HWC0");
    }
}

impl Format {
    /// Ascend's private (5D/fractal) layouts. A doc's "ND" means any plain layout: aclnn checks
    /// `IsPrivateFormat`, so NCHW or NCL tensors pass where ND is listed, private ones do not.
    pub fn is_private(self) -> bool {
        matches!(
            self,
            Format::Nc1hwc0
                | Format::FractalNz
                | Format::FractalZ
                | Format::FractalZ3d
                | Format::Ndc1hwc0
        )
    }

    /// True when a tensor of this format satisfies a documented format list.
    pub fn allowed_by(self, allowed: &[Format]) -> bool {
        allowed.contains(&self) || (allowed.contains(&Format::Nd) && !self.is_private())
    }
}

vocab_enum! {
    /// Ascend products (SoC families), by the stable ids aclgen uses everywhere.
    Product {
        Ascend910 = "ascend910",
        Ascend310p = "ascend310p",
        Ascend910b = "ascend910b",
        Ascend910_93 = "ascend910_93",
        Ascend950 = "ascend950",
        Ascend310b = "ascend310b",
        Kirin = "kirin",
    }
}

impl Product {
    /// The product id (same as `as_str`), named for readability at call sites.
    pub fn id(self) -> &'static str {
        self.as_str()
    }

    /// Unified Buffer bytes per AI core, which bounds every kernel tile: the reference SoC's
    /// (`soc.rs`), else the product row's figure.
    pub fn ub_bytes(self) -> usize {
        match self.reference_soc() {
            Some(soc) => soc.ub_bytes as usize,
            None => self.info().undescribed.0,
        }
    }

    /// Vector (AIV) core count of the reference SoC, used for the default block dim.
    pub fn core_count(self) -> u32 {
        match self.reference_soc() {
            Some(soc) => soc.vector_core_count(),
            None => self.info().undescribed.1,
        }
    }

    /// The `AddConfig` SoC name of OpDef: the product id.
    pub fn soc_version(self) -> &'static str {
        self.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_parse_to_canonical() {
        assert_eq!(DType::parse("float"), Some(DType::Float32));
        assert_eq!(DType::parse("BF16"), Some(DType::BFloat16));
        assert_eq!(DType::parse("FLOAT8_E4M3"), Some(DType::Float8E4M3Fn));
        assert_eq!(DType::parse("FLOAT33"), None);
        assert_eq!(DType::parse("HIF8"), Some(DType::HiFloat8));
        assert_eq!(Format::parse("NZ"), Some(Format::FractalNz));
        assert_eq!(Format::parse("ncdhw"), Some(Format::Ncdhw));
        assert_eq!(Product::parse("ascend910_93"), Some(Product::Ascend910_93));
    }

    #[test]
    fn canonical_spelling_round_trips() {
        for d in DType::ALL {
            assert_eq!(DType::parse(d.as_str()), Some(*d));
        }
        for f in Format::ALL {
            assert_eq!(Format::parse(f.as_str()), Some(*f));
        }
    }

    /// Every value round-trips through each of CANN's spellings it has, and no two values share
    /// one (a typo in the table would make two dtypes one in some output).
    #[test]
    fn every_spelling_round_trips() {
        fn check<T: Copy + PartialEq + fmt::Debug>(
            all: &[T],
            spelling: impl Fn(T) -> Spelling,
            acl: impl Fn(&str) -> Option<T>,
            acl_value: impl Fn(i32) -> Option<T>,
            ge: impl Fn(&str) -> Option<T>,
            ms: impl Fn(&str) -> Option<T>,
        ) {
            for v in all.iter().copied() {
                let s = spelling(v);
                if let Some((name, value)) = s.acl {
                    assert_eq!(acl(name), Some(v), "{name}");
                    assert_eq!(acl_value(value), Some(v), "{name} = {value}");
                }
                if let Some((name, _)) = s.ge {
                    assert_eq!(ge(name), Some(v), "{name}");
                    assert_eq!(ge(&format!("ge::{name}")), Some(v), "ge::{name}");
                }
                if let Some(name) = s.msopgen {
                    assert_eq!(ms(name), Some(v), "{name}");
                }
            }
            let ge_values: Vec<i32> = all
                .iter()
                .filter_map(|v| spelling(*v).ge.map(|g| g.1))
                .collect();
            let mut unique = ge_values.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(
                unique.len(),
                ge_values.len(),
                "two values share a ge number"
            );
        }
        check(
            DType::ALL,
            DType::spelling,
            DType::from_acl_name,
            DType::from_acl_value,
            DType::from_ge_name,
            DType::from_msopgen,
        );
        check(
            Format::ALL,
            Format::spelling,
            Format::from_acl_name,
            Format::from_acl_value,
            Format::from_ge_name,
            Format::from_msopgen,
        );
        assert_eq!(DType::from_msopgen("float"), Some(DType::Float32));
        assert_eq!(DType::from_msopgen("fp16"), Some(DType::Float16));
        assert_eq!(DType::from_msopgen("bf16"), Some(DType::BFloat16));
    }

    /// Where CANN has no spelling, none is invented (`gen` used to write ACL_HFLOAT32, which no
    /// header declares, and ACL_INT8 for QINT8).
    #[test]
    fn values_cann_lacks_have_no_spelling() {
        assert_eq!(
            DType::HFloat32.spelling(),
            Spelling {
                acl: None,
                ge: None,
                msopgen: None
            }
        );
        assert_eq!(DType::QInt8.acl_name(), None);
        assert_eq!(DType::QInt8.ge_name().as_deref(), Some("ge::DT_QINT8"));
        assert_eq!(Format::Nlc.acl_name(), None);
        assert_eq!(Format::Nlc.ge_name(), None);
        assert_eq!(Format::FractalZ3d.acl_name(), Some("ACL_FRACTAL_Z_3D"));
    }
}
