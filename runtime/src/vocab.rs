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

vocab_enum! {
    /// `aclDataType`, spelled as the docs spell it (FLOAT is an alias of FLOAT32). `UNDEFINED` is
    /// `ACL_DT_UNDEFINED`, a tensor whose dtype was never set: no doc allows it, so every dtype
    /// rule rejects it, as aclnn does.
    DType {
        Float32 = "FLOAT32" | "FLOAT" | "FP32",
        Float16 = "FLOAT16" | "FP16" | "HALF",
        BFloat16 = "BFLOAT16" | "BF16",
        Float64 = "DOUBLE" | "FLOAT64",
        HFloat32 = "HFLOAT32",
        Int4 = "INT4",
        Int8 = "INT8",
        Int16 = "INT16",
        Int32 = "INT32",
        Int64 = "INT64",
        UInt1 = "UINT1",
        UInt8 = "UINT8",
        UInt16 = "UINT16",
        UInt32 = "UINT32",
        UInt64 = "UINT64",
        Bool = "BOOL",
        Complex32 = "COMPLEX32",
        Complex64 = "COMPLEX64",
        Complex128 = "COMPLEX128",
        String = "STRING",
        HiFloat8 = "HIFLOAT8" | "HIF8",
        Float8E4M3Fn = "FLOAT8_E4M3FN" | "FLOAT8_E4M3" | "FLOAT_E4M3FN",
        Float8E5M2 = "FLOAT8_E5M2" | "FLOAT_E5M2",
        Float8E8M0 = "FLOAT8_E8M0",
        Float4E2M1 = "FLOAT4_E2M1",
        Float4E1M2 = "FLOAT4_E1M2",
        QInt8 = "QINT8",
        Undefined = "UNDEFINED" | "DT_UNDEFINED",
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

    /// False for spellings that name a compute mode rather than a tensor's element type
    /// (HFLOAT32 appears in cubeMathType texts) or that aclDataType lacks.
    pub fn is_tensor_dtype(self) -> bool {
        !matches!(self, DType::HFloat32 | DType::QInt8 | DType::Undefined)
    }

    /// The `aclDataType` enumerator (`ACL_FLOAT`, `ACL_BF16`, ...) used by C callers and CANN's UTs.
    pub fn acl_name(self) -> String {
        match self {
            DType::Float32 => "ACL_FLOAT".into(),
            DType::BFloat16 => "ACL_BF16".into(),
            DType::Float64 => "ACL_DOUBLE".into(),
            DType::Undefined => "ACL_DT_UNDEFINED".into(),
            other => format!("ACL_{}", other.as_str()),
        }
    }

    /// The `ge::DataType` spelling used by OpDef in Ascend C projects.
    pub fn ge_name(self) -> &'static str {
        use DType::*;
        match self {
            Float32 => "ge::DT_FLOAT",
            Float16 => "ge::DT_FLOAT16",
            BFloat16 => "ge::DT_BF16",
            Float64 => "ge::DT_DOUBLE",
            HFloat32 => "ge::DT_FLOAT",
            Int4 => "ge::DT_INT4",
            Int8 => "ge::DT_INT8",
            Int16 => "ge::DT_INT16",
            Int32 => "ge::DT_INT32",
            Int64 => "ge::DT_INT64",
            UInt1 => "ge::DT_UINT1",
            UInt8 => "ge::DT_UINT8",
            UInt16 => "ge::DT_UINT16",
            UInt32 => "ge::DT_UINT32",
            UInt64 => "ge::DT_UINT64",
            Bool => "ge::DT_BOOL",
            Complex32 => "ge::DT_COMPLEX32",
            Complex64 => "ge::DT_COMPLEX64",
            Complex128 => "ge::DT_COMPLEX128",
            String => "ge::DT_STRING",
            HiFloat8 => "ge::DT_HIFLOAT8",
            Float8E4M3Fn => "ge::DT_FLOAT8_E4M3FN",
            Float8E5M2 => "ge::DT_FLOAT8_E5M2",
            Float8E8M0 => "ge::DT_FLOAT8_E8M0",
            Float4E2M1 => "ge::DT_FLOAT4_E2M1",
            Float4E1M2 => "ge::DT_FLOAT4_E1M2",
            QInt8 => "ge::DT_QINT8",
            Undefined => "ge::DT_UNDEFINED",
        }
    }
}

vocab_enum! {
    /// `aclFormat`.
    Format {
        Nd = "ND",
        Nchw = "NCHW",
        Nhwc = "NHWC",
        Ncdhw = "NCDHW",
        Ndhwc = "NDHWC",
        Ncl = "NCL",
        Nlc = "NLC",
        Nc = "NC",
        Hwcn = "HWCN",
        Nc1hwc0 = "NC1HWC0",
        FractalNz = "FRACTAL_NZ" | "NZ",
        FractalZ = "FRACTAL_Z",
        FractalZ3d = "FRACTAL_Z_3D",
        Ndc1hwc0 = "NDC1HWC0",
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

    /// The `aclFormat` enumerator (`ACL_FORMAT_NCHW`).
    pub fn acl_name(self) -> String {
        format!("ACL_FORMAT_{}", self.as_str())
    }

    /// The `ge::Format` spelling used by OpDef.
    pub fn ge_name(self) -> String {
        format!("ge::FORMAT_{}", self.as_str())
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

    /// Unified Buffer bytes per AI core, which bounds every kernel tile.
    pub fn ub_bytes(self) -> usize {
        match self {
            Product::Ascend910 | Product::Ascend310p => 256 * 1024,
            Product::Ascend950 => 248 * 1024,
            _ => 192 * 1024,
        }
    }

    /// Vector (AIV) core count of the reference SKU, used for the default block dim.
    pub fn core_count(self) -> u32 {
        match self {
            Product::Ascend910 => 32,
            Product::Ascend310p => 8,
            Product::Ascend910b | Product::Ascend910_93 => 48,
            Product::Ascend950 => 64,
            Product::Ascend310b => 1,
            Product::Kirin => 1,
        }
    }

    /// The `AddConfig` SoC name of OpDef.
    pub fn soc_version(self) -> &'static str {
        match self {
            Product::Ascend910 => "ascend910",
            Product::Ascend310p => "ascend310p",
            Product::Ascend910b => "ascend910b",
            Product::Ascend910_93 => "ascend910_93",
            Product::Ascend950 => "ascend950",
            Product::Ascend310b => "ascend310b",
            Product::Kirin => "kirin",
        }
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
}
