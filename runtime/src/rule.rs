//! The rule vocabulary: what a documented error condition means, in a form a machine can check.
//!
//! Parameters are named as in the doc's prototype. Each rule carries the status code it
//! returns and the doc condition it implements, so every rejection can quote the doc.

use crate::vocab::{DType, Format};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One checkable condition. Rules are pure data; `crate::check` evaluates them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Rule {
    /// The op is not supported on the call's product at all.
    ProductSupported { products: Vec<String> },
    /// None of these pointers may be null.
    NotNull { params: Vec<String> },
    /// The pointer must be null: a parameter the doc reserves ("quantOffsetOptional不为空指针",
    /// "当前版本不支持，需传入空指针").
    IsNull { param: String },
    /// The param's dtype must be in the list for the call's product.
    DtypeIn {
        param: String,
        allowed: BTreeMap<String, Vec<DType>>,
    },
    /// All these params have one dtype.
    DtypeSame { params: Vec<String> },
    /// The tensor's dtype is the one the `aclDataType` argument `arg` names ("参数dtype和out的数据类型
    /// 不一致"), or the one whose `aclDataType` number an integer `arg` holds ("dstType：指定输出y的
    /// 数据类型。支持取值1、27，分别表示FLOAT16、BFLOAT16"); an absent `arg` is not checked.
    DtypeIsArg { param: String, arg: String },
    /// The tensors' dtypes promote to a common dtype (aclnn/PyTorch promotion:
    /// "self和other无法做数据类型推导"). A member whose argument is an `aclScalar` joins by CANN's
    /// tensor–scalar rule (`pred::promote_with_scalar`).
    DtypePromotable { params: Vec<String> },
    /// The promoted dtype of `from` (tensors, and `aclScalar` arguments as in `DtypePromotable`)
    /// casts to `to`'s dtype (no float → integer, complex → real, non-bool → bool):
    /// "推导出的数据类型无法转换为out的类型".
    DtypeCastable { from: Vec<String>, to: String },
    /// The dtype of each scalar argument casts to `dtype`, or (without it) to the promoted dtype
    /// of `to` (tensors and `aclScalar` arguments): "alpha无法转换为self和other推导后的数据类型",
    /// "alpha的数据类型不可转换为FLOAT".
    ScalarCastable {
        scalars: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        to: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dtype: Option<DType>,
    },
    /// The param's format must be in the list.
    FormatIn { param: String, allowed: Vec<Format> },
    /// All these params have one format.
    FormatSame { params: Vec<String> },
    /// The tensor's rank is in `[min, max]`.
    RankIn {
        param: String,
        min: usize,
        max: usize,
    },
    /// All these tensors have one rank.
    RankSame { params: Vec<String> },
    /// All these tensors have one shape.
    ShapeSame { params: Vec<String> },
    /// The tensor's shape equals the integer list attribute `list` (`trailing`: its last dims,
    /// right-aligned): "weight的shape与normalizedShape不相等".
    ShapeMatchesList {
        param: String,
        list: String,
        trailing: bool,
    },
    /// The tensor's shape is `base`'s shape with its last dims replaced by the integer list
    /// attribute `list`: "out的shape与self的shape和outputSize推导出的shape结果不一致" (self
    /// [N, C, D, H, W], outputSize [d, h, w] → out [N, C, d, h, w]).
    ShapeFromList {
        param: String,
        base: String,
        list: String,
    },
    /// The tensor's shape is `base`'s shape padded by the integer list attribute `list`, pairs
    /// from the last dim on as PyTorch's `pad` reads them (`list[2i]` and `list[2i+1]` add to dim
    /// `-1-i`): "out最后一维的值不等于self最后一维的值加padding的两个值" (self [1, 3], padding
    /// [2, 2] → out [1, 7]). A list of odd length or longer than two per dim of `base` is another
    /// rule's concern.
    ShapePadded {
        param: String,
        base: String,
        list: String,
    },
    /// The tensor's shape is `base`'s reduced over the dims of attribute `dims` (one int or a
    /// list; negative from the end), each reduced dim kept as 1 while Bool attribute `keepdim` is
    /// true: "out shape与实际不匹配" of a reduction. An empty or null `dims`, or an empty `base`,
    /// states nothing (CANN accepts a 0-d result of an empty dims list with keepdim, and any
    /// result of an empty base); a dim out of range is `AxisIn`'s concern.
    ShapeReduced {
        param: String,
        base: String,
        dims: String,
        keepdim: String,
    },
    /// Dim `lhs_dim` of `lhs` equals dim `rhs_dim` of `rhs` (negative = from the end):
    /// "batch1的最后一维和batch2的倒数第二维不相等".
    DimsEqual {
        lhs: String,
        lhs_dim: i64,
        rhs: String,
        rhs_dim: i64,
    },
    /// Dim `dim` of the tensor (negative = from the end) is a multiple of `by`: "x的最后一维不能被8整除",
    /// "尾轴大小不是偶数". With `dim_attr`, the dim is the one the integer attribute names
    /// ("self根据指定的dim所对应的维度不能整除2"); a dim the tensor lacks is `AxisIn`'s concern.
    DimMultipleOf {
        param: String,
        dim: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dim_attr: Option<String>,
        by: i64,
    },
    /// Dim `dim` of the tensor (negative = from the end) lies in `[min, max]` (either bound
    /// open when absent): "x的第一维度超出范围[1, 262144]", "x的第四维大于4096或者等于0". A dim the
    /// tensor lacks is a rank rule's concern.
    DimInRange {
        param: String,
        dim: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<i64>,
    },
    /// Dim `dim` of `param` (negative = from the end) equals the channel axis of `tensor`: its
    /// last dim when its format is channels-last (NHWC, NDHWC, NLC), else its second ("weight的shape
    ///与input的channel轴不一致", "mean在第二维上的size与input的channel轴不一致"). With `layout_attr`,
    /// the op's string attribute that names the layout ("dataFormat": "NHWC") decides instead of
    /// the tensor's format, when the call gives it.
    DimMatchesChannel {
        param: String,
        dim: i64,
        tensor: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        layout_attr: Option<String>,
    },
    /// Dim `dim` of `lhs` times `den` equals the same dim of `rhs` times `num` (negative = from the
    /// end of each; with `dim_attr`, the dim the integer attribute names): "out在dim维的size不等于self在
    /// dim维size的1/2" (num 1, den 2), "x最后一维不等于gradY最后一维的2倍" (num 2, den 1).
    DimsScaled {
        lhs: String,
        rhs: String,
        dim: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dim_attr: Option<String>,
        num: i64,
        den: i64,
    },
    /// `lhs` and `rhs` have one rank and equal dims except dim `dim` (negative = from the end; with
    /// `dim_attr`, the dim the integer attribute names): "out的shape跟self的shape除了dim指定的轴外需要保持一致".
    ShapeSameExcept {
        lhs: String,
        rhs: String,
        dim: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dim_attr: Option<String>,
    },
    /// Every dim of `lhs` is at most the same dim of `rhs`, but the dim the integer attribute
    /// `except_attr` names ("对于每一个维度d，有index.size(d) <= src.size(d)；且d != dim时，
    /// index.size(d) <= self.size(d)"). Tensors of different ranks are another rule's concern.
    DimsAtMost {
        lhs: String,
        rhs: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        except_attr: Option<String>,
    },
    /// `from` broadcasts to `to` one-way; `dims` (negative counts from the end) are the only
    /// dims allowed to differ; `None` allows any.
    Broadcastable {
        from: String,
        to: String,
        dims: Option<Vec<i64>>,
    },
    /// These tensors broadcast together (numpy rules: aligned from the end, each dim equal or 1).
    BroadcastTogether { params: Vec<String> },
    /// `out`'s shape is the shape `params` broadcast to ("gradOutput、self和target做broadcast后的
    /// shape与out不一致"); tensors that do not broadcast together have no such shape.
    BroadcastShape { params: Vec<String>, out: String },
    /// Every dim is > 0 (`allow_zero`: ≥ 0).
    DimsPositive { param: String, allow_zero: bool },
    /// The tensor's element count is one of these ("scalar元素个数不为1").
    NumelIn { param: String, values: Vec<i64> },
    /// The tensor may not be empty.
    NotEmpty { param: String },
    /// The tensor must be contiguous (docs that reject non-contiguous tensors).
    Contiguous { param: String },
    /// These lists (tensor lists or arrays) have one length.
    ListLenSame { params: Vec<String> },
    /// The list attribute's length is one of these.
    ListLenIn { param: String, lens: Vec<usize> },
    /// Every element of the list attribute lies in `[min, max]`.
    ListElemsInRange {
        param: String,
        min: Option<i64>,
        max: Option<i64>,
    },
    /// The list attribute's elements are pairwise distinct ("dims中数值重复").
    ListUnique { param: String },
    /// The integer attribute lies in `[min, max]`.
    IntInRange {
        param: String,
        min: Option<i64>,
        max: Option<i64>,
    },
    /// The attribute's value (a number, or each element of a list) is not `value`: "alpha等于0"
    /// rejects 0 alone; with `IntInRange` it makes a bound strict ("(0, 1]", "eps不大于0").
    ValueNot { param: String, value: i64 },
    /// The integer attribute (or every element of a list attribute) indexes a dim of `tensor`:
    /// it lies in `[-rank, rank-1]` ("dim的值不在[-self的维度数量, self的维度数量-1]之间").
    AxisIn { param: String, tensor: String },
    /// Each element of the integer list attribute `param` is below the dim of `tensor` it pads,
    /// pairs from the last dim on as `ShapePadded` reads them (`param[2i]` and `param[2i+1]` pad
    /// dim `-1-i`): "padding的数值大于等于self对应维度的值". A list of odd length or longer than two
    /// per dim is another rule's concern.
    PadsBelowDims { param: String, tensor: String },
    /// Numeric attribute `lhs` ≤ numeric attribute `rhs` ("quantMin大于quantMax", "from大于to"
    /// reject).
    ValueAtMost { lhs: String, rhs: String },
    /// The product of `lhs` equals the product of `rhs`: "self的元素数量不等于N*C*HxW",
    /// "self在C维度上的空间大小不等于C". Not checked where a factor is unknown (a null tensor, an
    /// absent attribute, a dim the tensor lacks).
    ProductsEqual { lhs: Vec<Factor>, rhs: Vec<Factor> },
    /// Integer attribute `param` is a multiple of integer attribute `by` ("C不能被group整除");
    /// a `by` of 0 is not checked.
    AttrMultipleOf { param: String, by: String },
    /// The integer attribute is one of these values.
    IntIn { param: String, values: Vec<i64> },
    /// The string attribute (`char*`) is one of these values, compared exactly as the doc writes
    /// them ("roundMode不在有效取值范围" with "支持取值round/ceil/trunc/floor"). A null string is
    /// not checked (that is `NotNull`'s job).
    StrIn { param: String, values: Vec<String> },
    /// Element-wise `num * lhs[i] <= den * rhs[i]` (a missing element repeats the first,
    /// as aclnn broadcasts length-1 lists): e.g. padding ≤ kernelSize / 2.
    ListElemsAtMostFraction {
        lhs: String,
        rhs: String,
        num: i64,
        den: i64,
    },
    /// The product of the tensor's trailing `dims` dims is at most `max`.
    ElementCountMax {
        param: String,
        dims: usize,
        max: i64,
    },
    /// The inner rule applies only when an attribute (or element `index` of a list attribute;
    /// bools count as 0/1) is one of `values` (`negate`: is none of them), e.g.
    /// "当outputMask[1]为true，gradWeight是空指针".
    When {
        param: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<usize>,
        values: Vec<i64>,
        #[serde(default)]
        negate: bool,
        rule: Box<Rule>,
    },
    /// The inner rule applies only when the string attribute (`char*`) is one of `values`
    /// (`negate`: is none of them), compared exactly as the doc writes them, as `StrIn` does:
    /// "当quantMode为static时，…", "fusedOpType为\"add\"、\"mul\"时，…". A null or absent string
    /// never meets the condition.
    WhenStr {
        param: String,
        values: Vec<String>,
        #[serde(default)]
        negate: bool,
        rule: Box<Rule>,
    },
    /// The inner rule applies only when some element of the integer list attribute lies in
    /// `[min, max]` (a missing bound is open): "如果pad中存在正数，…" (min 1), "当dims中存在负数时，…"
    /// (max -1). A null, absent or empty list never meets the condition.
    WhenAnyElem {
        param: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<i64>,
        rule: Box<Rule>,
    },
    /// The inner rule applies only when the tensor `param` has one of `dtypes` ("y的数据类型为INT4时，
    /// x的shape尾轴大小不是偶数"); a null `param` holds no dtype.
    WhenDtype {
        param: String,
        dtypes: Vec<DType>,
        rule: Box<Rule>,
    },
    /// The inner rule applies only while the argument `param` is in `state` ("当self为3维时，…",
    /// "X为空指针时，…", "selfRef是空tensor，index不是空tensor": the rule `NotEmpty{selfRef}` while
    /// index is not empty).
    WhenTensor {
        param: String,
        state: TensorState,
        rule: Box<Rule>,
    },
    /// The inner rule applies only on these products.
    OnProducts {
        products: Vec<String>,
        rule: Box<Rule>,
    },
}

/// The state of an argument a `Rule::WhenTensor` holds under. Every state but `Null` presumes the
/// argument is passed; the shape states presume a tensor (or a list of them: each one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TensorState {
    /// A null pointer (or no argument).
    Null,
    /// Not a null pointer.
    Present,
    /// A tensor with some dim 0.
    Empty,
    /// A tensor with no dim 0.
    NotEmpty,
    /// A tensor whose rank is one of `ranks` (`negate`: is none of them).
    Rank {
        ranks: Vec<usize>,
        #[serde(default)]
        negate: bool,
    },
}

impl TensorState {
    /// "null", "present", "empty", "not empty", "rank 3", "rank not 0": for messages and the audit.
    pub fn text(&self) -> String {
        match self {
            TensorState::Null => "null".into(),
            TensorState::Present => "present".into(),
            TensorState::Empty => "empty".into(),
            TensorState::NotEmpty => "not empty".into(),
            TensorState::Rank { ranks, negate } => {
                let ranks: Vec<String> = ranks.iter().map(usize::to_string).collect();
                format!(
                    "rank {}{}",
                    if *negate { "not " } else { "" },
                    ranks.join("/")
                )
            }
        }
    }
}

/// An integer a call determines, a factor of `Rule::ProductsEqual`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Factor {
    /// An integer attribute's value.
    Attr(String),
    /// Dim `dim` of a tensor (negative = from the end).
    Dim { param: String, dim: i64 },
    /// The product of a tensor's dims from `from` on: 1 when it has no more.
    DimsFrom { param: String, from: usize },
    /// A tensor's element count.
    Numel(String),
}

impl Factor {
    /// The parameter the factor reads.
    pub fn param(&self) -> &str {
        match self {
            Factor::Attr(p) | Factor::Numel(p) => p,
            Factor::Dim { param, .. } | Factor::DimsFrom { param, .. } => param,
        }
    }

    /// "N", "self.dim(1)", "numel(self)", "self.dims(2..)": for messages.
    pub fn text(&self) -> String {
        match self {
            Factor::Attr(p) => p.clone(),
            Factor::Dim { param, dim } => format!("{param}.dim({dim})"),
            Factor::DimsFrom { param, from } => format!("{param}.dims({from}..)"),
            Factor::Numel(p) => format!("numel({p})"),
        }
    }

    /// "N*C*HxW".
    pub fn product_text(factors: &[Factor]) -> String {
        factors
            .iter()
            .map(Factor::text)
            .collect::<Vec<_>>()
            .join("*")
    }
}

/// Validation order of aclnn's first phase: null pointers first, then dtypes, formats,
/// shapes and attributes. `Rule::stage` sorts rules into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Product,
    Null,
    Dtype,
    Format,
    Shape,
    Attribute,
}

impl Rule {
    /// The stage of aclnn's checking order the rule belongs to, by its family (a conditional
    /// rule is checked where its inner rule is).
    pub fn stage(&self) -> Stage {
        match self.family() {
            Family::Products => Stage::Product,
            Family::Nulls => Stage::Null,
            Family::Dtypes => Stage::Dtype,
            Family::Formats => Stage::Format,
            Family::Shapes | Family::Dims => Stage::Shape,
            Family::Values => Stage::Attribute,
            Family::Conditions => match self {
                Rule::OnProducts { rule, .. }
                | Rule::When { rule, .. }
                | Rule::WhenStr { rule, .. }
                | Rule::WhenAnyElem { rule, .. }
                | Rule::WhenDtype { rule, .. }
                | Rule::WhenTensor { rule, .. } => rule.stage(),
                _ => Stage::Attribute,
            },
        }
    }
}

/// The families rules are grouped in. Each layer keeps one module per family under the same
/// name (`check/dtypes.rs`, `cases/dtypes.rs`, `emit/rust/dtypes.rs`), so a family is found by
/// its name everywhere and a new backend is one more module per family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// The op on the call's product.
    Products,
    /// Null pointers.
    Nulls,
    /// Dtypes: lists, equalities, promotion and casts.
    Dtypes,
    /// Formats.
    Formats,
    /// Ranks, whole shapes, broadcasting, element counts and layout.
    Shapes,
    /// Single dims: equal, multiple of, in a range, scaled, the channel axis.
    Dims,
    /// Attribute values: integers, lists, strings, axes, relations between attributes.
    Values,
    /// Rules that hold under a condition: an attribute value, a dtype, a tensor's state, a product.
    Conditions,
}

impl Family {
    /// The family's module name in every layer.
    pub fn name(self) -> &'static str {
        match self {
            Family::Products => "products",
            Family::Nulls => "nulls",
            Family::Dtypes => "dtypes",
            Family::Formats => "formats",
            Family::Shapes => "shapes",
            Family::Dims => "dims",
            Family::Values => "values",
            Family::Conditions => "conditions",
        }
    }
}

impl Rule {
    /// The family the rule belongs to.
    pub fn family(&self) -> Family {
        match self {
            Rule::ProductSupported { .. } => Family::Products,
            Rule::NotNull { .. } | Rule::IsNull { .. } => Family::Nulls,
            Rule::DtypeIn { .. }
            | Rule::DtypeSame { .. }
            | Rule::DtypeIsArg { .. }
            | Rule::DtypePromotable { .. }
            | Rule::DtypeCastable { .. }
            | Rule::ScalarCastable { .. } => Family::Dtypes,
            Rule::FormatIn { .. } | Rule::FormatSame { .. } => Family::Formats,
            Rule::RankIn { .. }
            | Rule::RankSame { .. }
            | Rule::ShapeSame { .. }
            | Rule::ShapeMatchesList { .. }
            | Rule::ShapeFromList { .. }
            | Rule::ShapePadded { .. }
            | Rule::ShapeReduced { .. }
            | Rule::Broadcastable { .. }
            | Rule::BroadcastTogether { .. }
            | Rule::BroadcastShape { .. }
            | Rule::DimsPositive { .. }
            | Rule::NotEmpty { .. }
            | Rule::NumelIn { .. }
            | Rule::Contiguous { .. }
            | Rule::ElementCountMax { .. }
            | Rule::ProductsEqual { .. } => Family::Shapes,
            Rule::DimsEqual { .. }
            | Rule::DimMultipleOf { .. }
            | Rule::DimInRange { .. }
            | Rule::DimMatchesChannel { .. }
            | Rule::DimsScaled { .. }
            | Rule::ShapeSameExcept { .. }
            | Rule::DimsAtMost { .. } => Family::Dims,
            Rule::ListLenIn { .. }
            | Rule::ListLenSame { .. }
            | Rule::ListUnique { .. }
            | Rule::ListElemsInRange { .. }
            | Rule::IntInRange { .. }
            | Rule::ValueNot { .. }
            | Rule::IntIn { .. }
            | Rule::StrIn { .. }
            | Rule::AxisIn { .. }
            | Rule::PadsBelowDims { .. }
            | Rule::ValueAtMost { .. }
            | Rule::AttrMultipleOf { .. }
            | Rule::ListElemsAtMostFraction { .. } => Family::Values,
            Rule::When { .. }
            | Rule::WhenStr { .. }
            | Rule::WhenAnyElem { .. }
            | Rule::WhenDtype { .. }
            | Rule::WhenTensor { .. }
            | Rule::OnProducts { .. } => Family::Conditions,
        }
    }
}

/// A rule bound to the documented error it implements.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedRule {
    pub rule: Rule,
    /// Status returned when the rule fails (161001, 161002, ...).
    pub code: u32,
    /// The doc's condition text this rule implements.
    pub condition: String,
    /// True when no doc row states it and it was inferred from parameter constraints.
    #[serde(default)]
    pub inferred: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stage_follows_the_family_and_a_condition_its_inner_rule() {
        let p = || "x".to_string();
        assert_eq!(Rule::NotEmpty { param: p() }.stage(), Stage::Shape);
        let dims = Rule::DimsEqual {
            lhs: p(),
            lhs_dim: 0,
            rhs: p(),
            rhs_dim: 0,
        };
        assert_eq!(dims.stage(), Stage::Shape);
        let axis = Rule::AxisIn {
            param: p(),
            tensor: p(),
        };
        assert_eq!(axis.stage(), Stage::Attribute);
        let when = Rule::When {
            param: p(),
            index: None,
            values: vec![1],
            negate: false,
            rule: Box::new(Rule::NotNull { params: vec![p()] }),
        };
        assert_eq!(
            (when.family(), when.stage()),
            (Family::Conditions, Stage::Null)
        );
        let when_str = Rule::WhenStr {
            param: p(),
            values: vec!["static".into()],
            negate: false,
            rule: Box::new(Rule::NotNull { params: vec![p()] }),
        };
        assert_eq!(
            (when_str.family(), when_str.stage()),
            (Family::Conditions, Stage::Null)
        );
        let when_any = Rule::WhenAnyElem {
            param: p(),
            min: Some(1),
            max: None,
            rule: Box::new(Rule::NotEmpty { param: p() }),
        };
        assert_eq!(
            (when_any.family(), when_any.stage()),
            (Family::Conditions, Stage::Shape)
        );
    }
}
