//! The IR of one aclnn operator: everything the emitters need, and nothing about where it was
//! read from except provenance. `show --format json` prints it; its field names are a contract.

pub use crate::ctype::{CType, ParamKind};
pub use crate::diag::{Code, Diagnostic, Severity};
use aclnn_runtime::{Call, CheckedRule, DType, Format};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A product id such as `ascend910b`: an `aclnn_runtime::Product`'s id, or, for a product
/// aclgen does not know, a slug of its doc name (so nothing is lost). Serialized as the string.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProductId(String);

impl ProductId {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The known product of the id, if it is one.
    pub fn product(&self) -> Option<aclnn_runtime::Product> {
        aclnn_runtime::Product::parse(&self.0)
    }
}

impl std::ops::Deref for ProductId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// Maps keyed by `ProductId` are looked up by `&str` (ids compare as their strings).
impl std::borrow::Borrow<str> for ProductId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<String> for ProductId {
    fn borrow(&self) -> &String {
        &self.0
    }
}

impl From<String> for ProductId {
    fn from(id: String) -> Self {
        ProductId(id)
    }
}

impl From<&str> for ProductId {
    fn from(id: &str) -> Self {
        ProductId(id.to_string())
    }
}

impl From<aclnn_runtime::Product> for ProductId {
    fn from(p: aclnn_runtime::Product) -> Self {
        ProductId(p.id().to_string())
    }
}

impl From<ProductId> for String {
    fn from(id: ProductId) -> Self {
        id.0
    }
}

impl PartialEq<str> for ProductId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ProductId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for ProductId {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl std::fmt::Display for ProductId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OpIr {
    /// Name without the `aclnn` prefix, e.g. `AdaptiveAvgPool3dBackward`.
    pub op: String,
    /// Every product the doc names, supported (`true`) or not.
    pub products: BTreeMap<ProductId, bool>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formula: Option<String>,
    /// `GetWorkspaceSize` first, then the execute function.
    pub functions: Vec<Function>,
    /// Parameters of the first phase, in prototype order.
    pub params: Vec<Param>,
    /// Documented error cases of the first phase, one per condition.
    pub errors: Vec<ErrorCase>,
    /// Checks the validator makes that no error row states (inferred from parameter constraints).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inferred_rules: Vec<CheckedRule>,
    /// Lines of the constraints section (约束说明).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
    /// CANN's header file for the op, from the call example's `#include "aclnnop/..."`
    /// (`aclnn_avgpool2d_backward.h`); emitters fall back to `aclnn_<snake_op>.h`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// The doc's call example (C++), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The tensors' dtype and format lists are columns: entry i of every tensor's list is one
    /// supported combination (msOpGen's positional `type[]`/`format[]`), and a one-entry list
    /// holds in every column. `false` (docs): lists of one content vary together, the others
    /// combine freely.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub columns: bool,
    /// msOpGen's own spellings, for an op imported from its op JSON (see [`MsOpGen`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msopgen: Option<MsOpGen>,
    /// For an in-place function (`aclnnInplaceAdd`): the tensor it computes into and, where the
    /// specs document its out-of-place function, the link to it (`specs::inplace::link`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inplace: Option<Inplace>,
    /// Files this IR was read from (docs first, then YAML overlays).
    pub sources: Vec<String>,
    #[serde(default)]
    pub diagnostics: Vec<Diagnostic>,
    /// The cases synthesized from the proven rules (`pipeline::apply_rules`), once, for every
    /// stage after it: case files, the validators' tests, audit.
    #[serde(skip)]
    pub cases: CaseSet,
    /// What the doc states of each output's shape and dtype (`rules::outputs`), once, for every
    /// backend: the l0 op allocates each output by it, InferShape/InferDataType compute it.
    #[serde(skip)]
    pub outputs: Vec<OutputInference>,
}

/// One output tensor's shape and dtype as the doc states them (`None`: it states none, and the
/// aclnn caller's output tensor gives it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputInference {
    pub param: String,
    pub shape: Option<ShapeFrom>,
    pub dtype: Option<DtypeFrom>,
    /// The inputs the aclnn layer casts to the dtype the op computes this output in (the promoted
    /// inputs, or those a "不能转换为out" row sends to a dtype argument's output).
    pub casts: Vec<String>,
    /// An unconditional check makes the caller's tensor have the dtype the op computes this
    /// output in: no cast back.
    pub dtype_checked: bool,
}

/// Where an output's shape comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeFrom {
    /// This input's shape ("shape与self一致").
    Input(String),
    /// The broadcast of these inputs' shapes ("out的shape是self与other broadcast之后的shape").
    Broadcast(Vec<String>),
    /// Dim by dim ("out的shape不为(n，m)" beside "out的维度不等于2").
    Dims(Vec<DimFrom>),
    /// `input` reduced over the dims of attribute `dims` (an int list or one int, "取值范围为
    /// [-self.dim(), self.dim()-1]"), kept as 1s when Bool attribute `keepdim` is true
    /// ("reduce轴的维度是否保留").
    Reduce {
        input: String,
        dims: String,
        keepdim: String,
        when_empty: WhenEmpty,
    },
}

/// What an empty (or null) dims list of a reduction does, as the doc states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhenEmpty {
    /// The doc does not say: the inference fails for that call, never a guess.
    Unstated,
    /// Every dim is reduced ("当dim为nullptr或[]时，视为计算所有维度").
    EveryDim,
    /// Bool attribute `attr` chooses: when it is `noop`, nothing is reduced (the output is the
    /// input), otherwise every dim ("noopWithEmptyAxes … true：不进行计算，输出张量等于输入张量").
    Chosen { attr: String, noop: bool },
}

/// Where one dim of an output comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DimFrom {
    /// An integer attribute's value.
    Attr(String),
    /// Dim `dim` of an input (negative: from the end).
    Input { param: String, dim: i64 },
}

/// Where an output's dtype comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DtypeFrom {
    /// This input's dtype ("数据类型与self一致").
    Input(String),
    /// The input whose dtype list the output's is on every product, where the doc relates the
    /// two dtypes no other way: the OpDef zips identical lists into one column, so the kernel
    /// computes the output in that input's dtype and the aclnn layer casts it to the caller's.
    Paired(String),
    /// One dtype on every product (IsFinite's out: BOOL).
    Fixed(DType),
    /// The `aclDataType` argument of this name ("out的数据类型与dtype不一致").
    Argument(String),
    /// The promoted dtype of these inputs (the doc's 互推导关系): the op computes in it and the
    /// aclnn layer casts the inputs to it before, the result to the caller's dtype after.
    Promoted(Vec<String>),
    /// A mapping of input `input`'s dtype, case by case ("当self为实数时，self和out的数据类型
    /// 不一致。当self为COMPLEX64时，out的数据类型不为FLOAT32"); a dtype no case names has none.
    Mapped {
        input: String,
        cases: Vec<DtypeCase>,
    },
}

/// One case of a dtype mapping: while the input has one of `when`, the output has `to` (`None`:
/// the input's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DtypeCase {
    pub when: Vec<DType>,
    pub to: Option<DType>,
}

/// What an op imported from msOpGen's op JSON keeps of msOpGen's spelling, so gen writes its
/// JSON back as it came (`generated/ops/<snake>/<snake>.json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MsOpGen {
    /// The op's `language` (`cpp`); absent when the JSON had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Dtypes the JSON spelled with an alias, msOpGen's name → as written (`float16: fp16`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dtype_names: BTreeMap<String, String>,
    /// Attribute types the JSON spelled otherwise (`listInt: list_int`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attr_types: BTreeMap<String, String>,
}

/// An in-place function: the tensor it reads and writes, and the out-of-place op it is one
/// implementation with. A linked function shares that op's OpDef, l0 op and kernel: gen emits
/// only its aclnn entry and its checks. Unlinked, it keeps a project of its own whose output is
/// `tensor`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inplace {
    /// The in/out tensor (`selfRef`), whatever role its row gives it.
    pub tensor: String,
    /// The out-of-place op whose l0 op it calls, when the specs document one that maps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<InplaceOf>,
    /// Why an out-of-place op of its name in the specs was not linked (its parameters do not
    /// correspond).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unlinked: Option<String>,
}

/// The out-of-place op of an in-place function and how its arguments map.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InplaceOf {
    /// The out-of-place op's name (`Add`).
    pub op: String,
    /// Each checked parameter of the out-of-place op, in its prototype order, and the argument
    /// of the in-place function it receives (`self` and `out` both receive `selfRef`).
    pub args: Vec<ArgLink>,
}

/// One parameter of the out-of-place function and the in-place argument passed for it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgLink {
    pub param: String,
    pub from: String,
}

impl InplaceOf {
    /// The in-place argument passed for the out-of-place parameter `param`.
    pub fn arg_for(&self, param: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|a| a.param == param)
            .map(|a| a.from.as_str())
    }
}

/// A C function of the two-phase API. The IR types a spec file spells (`specs::schema`) refuse
/// unknown keys, so a misspelled key in a spec is an error at its line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    pub name: String,
    pub return_type: String,
    #[serde(default)]
    pub params: Vec<CParam>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Loc>,
}

/// A prototype parameter: name and C type spelled canonically (`const aclTensor*`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CParam {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: CType,
}

#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    InputTensor,
    OutputTensor,
    /// A tensor the op reads and writes in place (`aclTensor* selfRef`).
    InOutTensor,
    InputTensorList,
    OutputTensorList,
    /// A host-side value: bool, integer, float, scalar, int/float/bool array, string.
    #[default]
    Attribute,
    WorkspaceSize,
    Executor,
    Workspace,
    Stream,
}

impl Role {
    pub fn is_tensor(self) -> bool {
        matches!(
            self,
            Role::InputTensor
                | Role::OutputTensor
                | Role::InOutTensor
                | Role::InputTensorList
                | Role::OutputTensorList
        )
    }

    pub fn is_tensor_list(self) -> bool {
        matches!(self, Role::InputTensorList | Role::OutputTensorList)
    }
}

/// Inclusive rank range of a tensor parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rank {
    pub min: usize,
    pub max: usize,
}

/// A parameter as a full spec writes it, too: a new field is in the spec schema as it is here.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    pub name: String,
    pub role: Role,
    #[serde(rename = "type")]
    pub ty: CType,
    /// May be a null pointer (documented as optional / 可选).
    #[serde(default)]
    pub optional: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Supported dtypes for every supported product.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dtypes: BTreeMap<ProductId, Vec<DType>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub formats: Vec<Format>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<Rank>,
    /// The shapes the table states dim by dim, one per alternative: "(T,N,C)或(T,C)" →
    /// `[[T, N, C], [T, C]]`. Dims of one name are one size across the op's tensors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_contiguous: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_tensor: Option<bool>,
    /// Constraints as the doc states them ("数据类型与self一致", "长度为1或2", ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
    /// Dtypes the parameter takes while another tensor has some dtype: "当`x`的数据类型为FLOAT16时，
    /// 数据类型支持FLOAT16、DOUBLE".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dtypes_given: Vec<DtypesGiven>,
    /// Enumerated values of an integer attribute (cubeMathType 0..3), with their names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub enum_values: BTreeMap<i64, String>,
    /// An attribute's default value as msOpGen's `default_value` gives it (a JSON value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Loc>,
}

impl Param {
    /// What the parameter is, from its C type.
    pub fn kind(&self) -> ParamKind {
        self.ty.kind()
    }

    /// An `aclScalar*` argument (not a list): it carries a dtype of its own.
    pub fn is_scalar(&self) -> bool {
        self.role == Role::Attribute && self.kind() == ParamKind::Scalar
    }
}

/// "当`on`的数据类型为`when`时，数据类型支持`allowed`" on `products` (empty: every product).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DtypesGiven {
    pub on: String,
    pub when: Vec<DType>,
    pub allowed: Vec<DType>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub products: Vec<ProductId>,
}

/// One documented error condition. `rule` is filled by the rules stage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorCase {
    pub code: u32,
    pub name: String,
    pub condition: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Loc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<Mapping>,
}

/// How the rules stage understood an error condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Mapping {
    /// Executable rules that together implement the condition. `unread` names an alternative
    /// of an "A，或B" condition the rules leave out (and why): the rules reject where the doc
    /// does, but not everywhere it does.
    Rules {
        rules: Vec<CheckedRule>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unread: Option<String>,
    },
    /// Not expressible in the rule vocabulary; kept as text with the kind of reason and the reason.
    Manual {
        #[serde(default)]
        kind: ManualKind,
        reason: String,
    },
}

/// Why a documented condition has no rule, by kind: what audit, `show --manual` and the tests
/// count and match on (the reason's text says it for a person).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum ManualKind {
    /// The row holds only under other arguments' values or a scenario no rule can scope.
    Conditional,
    /// The row carves out an exception (for one value, under a condition, a joint condition)
    /// that no rule can say.
    Exception,
    /// The reader understands what the row constrains, but the rule vocabulary has no rule for
    /// it (a shape derived from others, a broadcast of some dims, rank sets with gaps).
    Vocabulary,
    /// The reader recognizes no constraint in the words (the reader's gap).
    #[default]
    Unrecognized,
    /// The row names something that is not a parameter of the op, or too few of them.
    UnknownName,
    /// The doc does not state what the row refers to (a bound, a set of values, a layout).
    Unstated,
    /// A condition on tensor data, which the first phase does not see (a kernel's limit).
    RuntimeData,
    /// The doc contradicts itself (a rank range that is empty, two shapes for one equality).
    Contradiction,
    /// gen's proof demoted the rule read from it: it rejects a valid call.
    Demoted,
    /// Another row or the parameter table checks it.
    CheckedElsewhere,
}

impl ManualKind {
    pub const ALL: [ManualKind; 10] = [
        ManualKind::Conditional,
        ManualKind::Exception,
        ManualKind::Vocabulary,
        ManualKind::Unrecognized,
        ManualKind::UnknownName,
        ManualKind::Unstated,
        ManualKind::RuntimeData,
        ManualKind::Contradiction,
        ManualKind::Demoted,
        ManualKind::CheckedElsewhere,
    ];

    /// The kind's code, as JSON spells it (`unknown-name`).
    pub fn code(self) -> &'static str {
        match self {
            ManualKind::Conditional => "conditional",
            ManualKind::Exception => "exception",
            ManualKind::Vocabulary => "vocabulary",
            ManualKind::Unrecognized => "unrecognized",
            ManualKind::UnknownName => "unknown-name",
            ManualKind::Unstated => "unstated",
            ManualKind::RuntimeData => "runtime-data",
            ManualKind::Contradiction => "contradiction",
            ManualKind::Demoted => "demoted",
            ManualKind::CheckedElsewhere => "checked-elsewhere",
        }
    }

    /// Whose the gap is, for a reader of the figures: the reader's, the doc's, or neither.
    pub fn whose(self) -> &'static str {
        match self {
            ManualKind::Vocabulary | ManualKind::Unrecognized | ManualKind::UnknownName => {
                "the reader's"
            }
            ManualKind::Unstated | ManualKind::Contradiction => "the doc's",
            ManualKind::Conditional | ManualKind::Exception => "the rule vocabulary's scope",
            ManualKind::RuntimeData => "a kernel's, at execute time",
            ManualKind::Demoted => "gen's proof",
            ManualKind::CheckedElsewhere => "no one's: checked elsewhere",
        }
    }
}

impl Mapping {
    /// What of the condition no rule checks: all of it (manual) or an alternative left out.
    pub fn unread(&self) -> Option<&str> {
        match self {
            Mapping::Manual { reason, .. } => Some(reason),
            Mapping::Rules { unread, .. } => unread.as_deref(),
        }
    }
}

/// Where a fact came from.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Loc {
    pub file: String,
    pub line: usize,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl OpIr {
    /// The first-phase function, if the doc gave one.
    pub fn workspace_fn(&self) -> Option<&Function> {
        self.functions
            .iter()
            .find(|f| f.name.ends_with("GetWorkspaceSize"))
    }

    /// The execute (second-phase) function.
    pub fn execute_fn(&self) -> Option<&Function> {
        self.functions
            .iter()
            .find(|f| !f.name.ends_with("GetWorkspaceSize"))
    }

    /// The C header's file name: the doc's own when it names one, else `aclnn_<snake_op>.h`.
    pub fn header_name(&self) -> String {
        self.header
            .clone()
            .unwrap_or_else(|| format!("aclnn_{}.h", snake_case(&self.op)))
    }

    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The out-of-place op a linked in-place function shares its op project with.
    pub fn linked_to(&self) -> Option<&InplaceOf> {
        self.inplace.as_ref().and_then(|i| i.of.as_ref())
    }

    /// The op whose project (`ops/<snake>/`) holds this function's C++: its out-of-place op's
    /// when linked, else its own.
    pub fn project_op(&self) -> &str {
        self.linked_to().map_or(&self.op, |of| of.op.as_str())
    }

    /// The op's folder below the output folder: `ops/<snake of project_op>`.
    pub fn project_dir(&self) -> String {
        format!("ops/{}", snake_case(self.project_op()))
    }

    /// Its synthesized cases, relative to the output folder: `tests/cases.json` of its own
    /// project, or `tests/cases_<snake>.json` in the project it shares.
    pub fn cases_path(&self) -> String {
        if self.linked_to().is_some() {
            format!(
                "{}/tests/cases_{}.json",
                self.project_dir(),
                snake_case(&self.op)
            )
        } else {
            format!("{}/tests/cases.json", self.project_dir())
        }
    }

    pub fn supported_products(&self) -> impl Iterator<Item = &str> {
        self.products
            .iter()
            .filter(|(_, ok)| **ok)
            .map(|(id, _)| id.as_str())
    }

    /// The products a dtype the doc states without naming a product holds on (`stated_products`).
    pub fn dtype_products(&self) -> Vec<ProductId> {
        stated_products(&self.products)
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// Every executable rule, documented and inferred, in aclnn's checking order
    /// (stable within a stage, so doc order is kept).
    pub fn all_rules(&self) -> Vec<CheckedRule> {
        let mut rules: Vec<CheckedRule> = self
            .errors
            .iter()
            .filter_map(|e| match &e.mapping {
                Some(Mapping::Rules { rules, .. }) => Some(rules.clone()),
                _ => None,
            })
            .flatten()
            .chain(self.inferred_rules.iter().cloned())
            .collect();
        rules.sort_by_key(|r| r.rule.stage());
        rules
    }
}

// ---------------------------------------------------------------------------------------------
// What gen needs of an op. Checked where an op is read (so `lint` reports exactly what `gen`
// refuses, at the doc's line) and again by gen for IR from anywhere else.

/// Diagnostic codes of [`OpIr::generation_problems`]; all errors.
pub const GENERATION_CODES: &[Code] = &[
    Code::UnknownCType,
    Code::BadParamName,
    Code::NoTwoPhaseApi,
    Code::NoTensorParam,
];

/// Whether `name` is a C identifier (op and parameter names become file and C/Rust names).
/// The products a dtype list the doc states without naming a product holds on: those the doc
/// supports; every product aclgen knows where the doc has no product section at all (its dtype
/// column, "`FLOAT16/FLOAT/BFLOAT16`", is qualified by none).
pub fn stated_products(products: &BTreeMap<ProductId, bool>) -> Vec<ProductId> {
    if products.is_empty() {
        return aclnn_runtime::products::PRODUCTS
            .iter()
            .map(|p| ProductId::from(p.product))
            .collect();
    }
    products
        .iter()
        .filter(|(_, ok)| **ok)
        .map(|(id, _)| id.clone())
        .collect()
}

pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl OpIr {
    /// Why gen cannot generate this op, one error per problem, at the prototype's place when the
    /// IR knows it (`source_line` is left for the reader, which has the text, to fill).
    pub fn generation_problems(&self) -> Vec<Diagnostic> {
        let mut problems = Vec::new();
        for f in &self.functions {
            for p in &f.params {
                if let Some((code, message)) = c_param_problem(f, p) {
                    problems.push(self.problem_at(f.source.as_ref(), code, message));
                }
            }
        }
        if self.workspace_fn().is_none() || self.execute_fn().is_none() {
            let message = format!(
                "aclnn{} has no two-phase prototypes (`aclnn{0}GetWorkspaceSize` and `aclnn{0}`); \
                 gen makes nothing for it",
                self.op
            );
            let at = self.functions.first().and_then(|f| f.source.as_ref());
            problems.push(self.problem_at(at, Code::NoTwoPhaseApi, message));
        }
        if !self.params.iter().any(|p| p.role.is_tensor()) {
            // An Ascend C project computes on tensors (aclnnSleep has none).
            let message = format!(
                "aclnn{} has no tensor parameter, so no Ascend C project; gen makes nothing for it",
                self.op
            );
            let at = self.workspace_fn().and_then(|f| f.source.as_ref());
            problems.push(self.problem_at(at, Code::NoTensorParam, message));
        }
        problems
    }

    fn problem_at(&self, at: Option<&Loc>, code: Code, message: String) -> Diagnostic {
        self.diagnostic_at(at, Severity::Error, code, message)
    }

    /// A diagnostic about the op as a whole (its name, its files), at its first-phase prototype
    /// (the first function when it has none), or about its first source file when the IR knows
    /// no place.
    pub fn op_diagnostic(&self, severity: Severity, code: Code, message: String) -> Diagnostic {
        let at = self
            .workspace_fn()
            .or_else(|| self.functions.first())
            .and_then(|f| f.source.as_ref());
        self.diagnostic_at(at, severity, code, message)
    }

    fn diagnostic_at(
        &self,
        at: Option<&Loc>,
        severity: Severity,
        code: Code,
        message: String,
    ) -> Diagnostic {
        let file = at
            .map(|l| l.file.clone())
            .or_else(|| self.sources.first().cloned())
            .unwrap_or_default();
        let (line, column) = at.map_or((0, 0), |l| (l.line, l.column));
        Diagnostic {
            severity,
            code,
            message,
            file,
            line,
            column,
            source_line: String::new(),
        }
    }
}

/// A prototype parameter whose type is not an aclnn C type or whose name is not an identifier
/// (doc typos such as `onst aclTensor*`, or a missing comma that glues two parameters).
fn c_param_problem(f: &Function, p: &CParam) -> Option<(Code, String)> {
    if p.ty.base() == crate::ctype::Base::Unknown {
        let glued =
            p.ty.name()
                .split_whitespace()
                .filter(|w| crate::ctype::Base::is_known_name(w))
                .count()
                > 1;
        let hint = if glued {
            " (a missing comma between two parameters?)"
        } else {
            ""
        };
        return Some((
            Code::UnknownCType,
            format!(
                "{}: parameter `{}` has type `{}`, which is not an aclnn C type{hint}",
                f.name, p.name, p.ty
            ),
        ));
    }
    if !is_identifier(&p.name) {
        return Some((
            Code::BadParamName,
            format!(
                "{}: parameter name `{}` is not an identifier",
                f.name, p.name
            ),
        ));
    }
    None
}

/// `AdaptiveAvgPool3dBackward` → `adaptive_avg_pool3d_backward`, the spelling of CANN's file names.
pub fn snake_case(op: &str) -> String {
    let chars: Vec<char> = op.chars().collect();
    let mut out = String::with_capacity(op.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            let boundary = match prev {
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => {
                    // "3dBackward": a digit then "d" stays glued ("pool3d"), the next capital splits.
                    true
                }
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// One synthesized call and the status the documented rules give it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Case {
    pub name: String,
    pub call: Call,
    pub expect: Expect,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expect {
    pub status: u32,
    pub name: String,
    /// The doc condition the case exercises; empty for a valid call.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub condition: String,
    /// Index into `OpIr::all_rules()` of the rule that rejects the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<usize>,
}

/// The cases of one op, and the rules no case could exercise, with the reason.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CaseSet {
    pub cases: Vec<Case>,
    pub untested: BTreeMap<usize, String>,
}

impl CaseSet {
    /// Indices of rules some case exercises.
    pub fn tested_rules(&self) -> BTreeSet<usize> {
        self.cases.iter().filter_map(|c| c.expect.rule).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doc_without_products_states_its_dtypes_for_every_product() {
        // No product section: every product aclgen knows.
        let every = stated_products(&BTreeMap::new());
        assert_eq!(every.len(), aclnn_runtime::products::PRODUCTS.len());
        assert!(every.iter().any(|p| p.as_str() == "ascend910b"));
        // A product section: the products it supports, not those it marks unsupported.
        let listed = BTreeMap::from([
            (ProductId::from("ascend910b"), true),
            (ProductId::from("ascend310p"), false),
        ]);
        assert_eq!(stated_products(&listed), [ProductId::from("ascend910b")]);
    }

    fn two_phase_op(first_param: CParam) -> OpIr {
        let f = |name: &str, params: Vec<CParam>| Function {
            name: name.into(),
            return_type: "aclnnStatus".into(),
            params,
            source: Some(Loc {
                file: "a.md".into(),
                line: 7,
                column: 3,
            }),
        };
        OpIr {
            op: "Foo".into(),
            functions: vec![
                f("aclnnFooGetWorkspaceSize", vec![first_param]),
                f("aclnnFoo", vec![]),
            ],
            params: vec![Param {
                name: "self".into(),
                role: Role::InputTensor,
                ..Param::default()
            }],
            ..OpIr::default()
        }
    }

    fn codes(op: &OpIr) -> Vec<String> {
        op.generation_problems()
            .into_iter()
            .map(|d| d.code.to_string())
            .collect()
    }

    #[test]
    fn generation_problems_name_the_prototype_typo_at_its_line() {
        let param = |ty: &str, name: &str| CParam {
            name: name.into(),
            ty: ty.into(),
        };
        assert!(codes(&two_phase_op(param("const aclTensor *", "self"))).is_empty());
        let op = two_phase_op(param("onst aclTensor*", "self"));
        let problems = op.generation_problems();
        assert_eq!(codes(&op), ["unknown-c-type"]);
        assert!(problems[0].message.contains("onst aclTensor*"));
        assert_eq!((problems[0].file.as_str(), problems[0].line), ("a.md", 7));
        // A missing comma glues two parameters into one type.
        let glued = two_phase_op(param(
            "const aclTensor*self const aclIntArray*",
            "kernelSize",
        ));
        assert!(glued.generation_problems()[0]
            .message
            .contains("missing comma"));
        let bad_name = two_phase_op(param("aclTensor*", "a b"));
        assert_eq!(codes(&bad_name), ["bad-param-name"]);
    }

    #[test]
    fn generation_needs_two_phases_and_a_tensor() {
        let param = CParam {
            name: "self".into(),
            ty: "const aclTensor*".into(),
        };
        let mut single = two_phase_op(param.clone());
        single.functions.remove(0);
        assert_eq!(codes(&single), ["no-two-phase-api"]);
        let mut sleepy = two_phase_op(param);
        sleepy.params.clear();
        assert_eq!(codes(&sleepy), ["no-tensor-param"]);
    }

    #[test]
    fn snake_case_matches_cann_file_names() {
        assert_eq!(
            snake_case("AdaptiveAvgPool3dBackward"),
            "adaptive_avg_pool3d_backward"
        );
        assert_eq!(
            snake_case("AdaptiveMaxPool3dBackward"),
            "adaptive_max_pool3d_backward"
        );
        assert_eq!(snake_case("AvgPool2dBackward"), "avg_pool2d_backward");
        assert_eq!(snake_case("GeGluV3"), "ge_glu_v3");
        assert_eq!(snake_case("MSELoss"), "mse_loss");
    }
}
