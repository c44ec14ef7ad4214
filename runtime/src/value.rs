//! What an aclnn call passes: tensor descriptions, attributes, and the error it may get back.

use crate::vocab::{DType, Format};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// An `aclTensor` as the first phase sees it: metadata only, no data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorDesc {
    pub shape: Vec<i64>,
    pub dtype: DType,
    #[serde(default = "default_format")]
    pub format: Format,
    /// Element strides; `None` means contiguous.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strides: Option<Vec<i64>>,
}

fn default_format() -> Format {
    Format::Nd
}

impl TensorDesc {
    pub fn new(shape: &[i64], dtype: DType, format: Format) -> Self {
        TensorDesc {
            shape: shape.to_vec(),
            dtype,
            format,
            strides: None,
        }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements, or `None` when it overflows i64 (the caller treats that as invalid).
    pub fn numel(&self) -> Option<i64> {
        self.shape
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d.max(0)))
    }

    pub fn is_empty(&self) -> bool {
        self.shape.contains(&0)
    }

    /// True when the strides describe a row-major contiguous layout (or are absent).
    pub fn is_contiguous(&self) -> bool {
        let Some(strides) = &self.strides else {
            return true;
        };
        let mut expected = 1i64;
        for (dim, stride) in self.shape.iter().zip(strides).rev() {
            if *dim != 1 && *stride != expected {
                return false;
            }
            expected = expected.saturating_mul(*dim);
        }
        strides.len() == self.shape.len()
    }
}

/// One argument of a first-phase call. `Null` is a null pointer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arg {
    Null,
    Tensor(TensorDesc),
    TensorList(Vec<TensorDesc>),
    Scalar {
        dtype: DType,
        value: f64,
    },
    Bool(bool),
    Int(i64),
    Float(f64),
    IntArray(Vec<i64>),
    FloatArray(Vec<f64>),
    BoolArray(Vec<bool>),
    /// An `aclDataType` argument (the dtype an op casts to, for instance).
    DataType(DType),
    /// A string attribute (`char*`: "round", "NCHW"); a JSON string in CALL.json. After
    /// `DataType`, so a dtype name still reads as a dtype.
    Str(String),
}

impl Arg {
    pub fn is_null(&self) -> bool {
        matches!(self, Arg::Null)
    }

    /// The tensors this argument carries (one, a list, or none).
    pub fn tensors(&self) -> Vec<&TensorDesc> {
        match self {
            Arg::Tensor(t) => vec![t],
            Arg::TensorList(ts) => ts.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The integer value of an integer or scalar attribute.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Arg::Int(v) => Some(*v),
            Arg::Scalar { value, .. } if value.fract() == 0.0 => Some(*value as i64),
            Arg::Float(v) if v.fract() == 0.0 => Some(*v as i64),
            _ => None,
        }
    }

    /// The text of a string attribute.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Arg::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The numeric value of a scalar-like attribute.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Arg::Int(v) => Some(*v as f64),
            Arg::Float(v) => Some(*v),
            Arg::Scalar { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The elements of a list attribute (`aclIntArray` and friends), as i64 where they are integral.
    pub fn as_int_list(&self) -> Option<Vec<i64>> {
        match self {
            Arg::IntArray(v) => Some(v.clone()),
            Arg::BoolArray(v) => Some(v.iter().map(|b| *b as i64).collect()),
            Arg::FloatArray(v) => Some(v.iter().map(|x| *x as i64).collect()),
            _ => None,
        }
    }

    /// Length of a list argument (array attribute or tensor list).
    pub fn list_len(&self) -> Option<usize> {
        match self {
            Arg::IntArray(v) => Some(v.len()),
            Arg::FloatArray(v) => Some(v.len()),
            Arg::BoolArray(v) => Some(v.len()),
            Arg::TensorList(v) => Some(v.len()),
            _ => None,
        }
    }
}

/// A whole first-phase call: the product it runs on and its named arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    pub product: String,
    pub args: BTreeMap<String, Arg>,
}

/// The aclnn status codes the first phase returns for bad arguments.
pub mod status {
    pub const SUCCESS: u32 = 0;
    pub const PARAM_NULLPTR: u32 = 161001;
    pub const PARAM_INVALID: u32 = 161002;
    pub const RUNTIME_ERROR: u32 = 361001;
    pub const INNER: u32 = 561000;

    /// Every status code opbase declares, with its name (`opdev/op_errno.h`). A code not here
    /// has no name a C caller could write.
    pub const DECLARED: &[(u32, &str)] = &[
        (SUCCESS, "ACLNN_SUCCESS"),
        (PARAM_NULLPTR, "ACLNN_ERR_PARAM_NULLPTR"),
        (PARAM_INVALID, "ACLNN_ERR_PARAM_INVALID"),
        (RUNTIME_ERROR, "ACLNN_ERR_RUNTIME_ERROR"),
        (INNER, "ACLNN_ERR_INNER"),
        (561001, "ACLNN_ERR_INNER_INFERSHAPE_ERROR"),
        (561002, "ACLNN_ERR_INNER_TILING_ERROR"),
        (561003, "ACLNN_ERR_INNER_FIND_KERNEL_ERROR"),
        (561101, "ACLNN_ERR_INNER_CREATE_EXECUTOR"),
        (561102, "ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR"),
        (561103, "ACLNN_ERR_INNER_NULLPTR"),
        (561104, "ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE"),
        (561105, "ACLNN_ERR_INNER_KEY_CONFLICT"),
        (561106, "ACLNN_ERR_INNER_INVALID_IMPL_MODE"),
        (561107, "ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND"),
        (561108, "ACLNN_ERR_INNER_LOAD_JSON_FAILED"),
        (561109, "ACLNN_ERR_INNER_JSON_VALUE_NOT_FOUND"),
        (561110, "ACLNN_ERR_INNER_JSON_FORMAT_INVALID"),
        (561111, "ACLNN_ERR_INNER_JSON_DTYPE_INVALID"),
        (561112, "ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND"),
        (561113, "ACLNN_ERR_INNER_OP_FILE_INVALID"),
        (561114, "ACLNN_ERR_INNER_ATTR_NUM_OUT_OF_BOUND"),
        (561115, "ACLNN_ERR_INNER_ATTR_LEN_NOT_ENOUGH"),
        (561116, "ACLNN_ERR_INNER_INPUT_NUM_IN_JSON_TOO_LARGE"),
        (561117, "ACLNN_ERR_INNER_INPUT_JSON_IS_NULL"),
        (561118, "ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID"),
        (561119, "ACLNN_ERR_INNER_STATIC_BLOCK_DIM_INVALID"),
    ];

    /// The name CANN declares for a status code, if it declares one.
    pub fn declared(code: u32) -> Option<&'static str> {
        DECLARED.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
    }

    /// The symbolic name of a status code, for messages: CANN's, or `undeclared status` for a
    /// code no header declares (never a name a C caller could mistake for CANN's).
    pub fn name(code: u32) -> &'static str {
        declared(code).unwrap_or("undeclared status")
    }

    /// The code of a symbolic name, for docs that give only one of the two.
    pub fn code(name: &str) -> Option<u32> {
        DECLARED.iter().find(|(_, n)| *n == name).map(|(c, _)| *c)
    }
}

/// A rejected call: the status code, its name, the doc condition that rejected it, and a message
/// saying what in this call broke it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AclnnError {
    pub code: u32,
    pub name: String,
    pub condition: String,
    pub message: String,
}

impl AclnnError {
    pub fn new(code: u32, condition: impl Into<String>, message: impl Into<String>) -> Self {
        AclnnError {
            code,
            name: status::name(code).to_string(),
            condition: condition.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for AclnnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {} [{}]",
            self.code, self.name, self.message, self.condition
        )
    }
}

impl std::error::Error for AclnnError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_json_parses_every_arg_kind() {
        let json = r#"{"product": "ascend910b", "args": {
            "gradOutput": {"shape": [2,2,1,1,1], "dtype": "FLOAT32", "format": "ND"},
            "kernelSize": [4,4], "ceilMode": false, "divisorOverride": 0, "out": null,
            "alpha": {"dtype": "FLOAT32", "value": 1.5},
            "list": [{"shape": [1], "dtype": "INT32"}], "roundMode": "round", "dstType": "INT8"}}"#;
        let call: Call = serde_json::from_str(json).unwrap();
        assert!(matches!(call.args["gradOutput"], Arg::Tensor(_)));
        assert_eq!(call.args["kernelSize"], Arg::IntArray(vec![4, 4]));
        assert_eq!(call.args["ceilMode"], Arg::Bool(false));
        assert_eq!(call.args["divisorOverride"], Arg::Int(0));
        assert!(call.args["out"].is_null());
        assert!(matches!(call.args["alpha"], Arg::Scalar { .. }));
        assert!(matches!(call.args["list"], Arg::TensorList(_)));
        assert_eq!(call.args["roundMode"], Arg::Str("round".into()));
        assert_eq!(call.args["roundMode"].as_str(), Some("round"));
        assert_eq!(call.args["dstType"], Arg::DataType(DType::Int8));
        let back = serde_json::to_value(&call.args["roundMode"]).unwrap();
        assert_eq!(back, serde_json::json!("round"));
    }

    #[test]
    fn contiguity_follows_strides() {
        let mut t = TensorDesc::new(&[2, 3], DType::Float32, Format::Nd);
        assert!(t.is_contiguous());
        t.strides = Some(vec![3, 1]);
        assert!(t.is_contiguous());
        t.strides = Some(vec![1, 2]);
        assert!(!t.is_contiguous());
    }

    #[test]
    fn status_names_round_trip() {
        assert_eq!(status::code(status::name(161002)), Some(161002));
    }
}
