//! Stage 2: documented error conditions become executable rules (`ErrorCase::mapping`).
//!
//! `recognize` reads each condition's Chinese text; `infer` reads parameter descriptions (for
//! docs without an error table, and for conditions that point at them); `validate` is the
//! `aclgen validate` command; `program` makes a call of a C++ program (a doc's call example, a
//! CANN unit test) a `Call`.

mod dtype_args;
mod infer;
pub mod outputs;
pub mod program;
mod recognize;
pub(crate) mod text;
mod validate;

pub use validate::{checks_values_of, parse_arg, parse_call, result_json, CallError};

use crate::ir::{ManualKind, Mapping, OpIr, ParamKind, Role};
use aclnn_runtime::{status, AclnnError, Call, CheckedRule, Rule};

// A row on a tensor's shape: its shape, its dims, its axes.
text::re!(SHAPE_ASPECT, r"(?i)shape|形状|维|轴|size");

/// Why a documented condition has no rule: it stays `manual`, with this kind and reason, instead
/// of a guess (a validator that rejects a valid call is worse than one that misses a check).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manual {
    pub kind: ManualKind,
    pub reason: String,
}

impl Manual {
    fn new(kind: ManualKind, reason: impl Into<String>) -> Manual {
        Manual {
            kind,
            reason: reason.into(),
        }
    }

    /// A row that holds only under a condition on other arguments no prefix reads.
    fn conditional(condition: &str) -> Manual {
        Manual::new(
            ManualKind::Conditional,
            format!(
                "conditional on other arguments' values (“{condition}”), which the rule \
                 vocabulary cannot express"
            ),
        )
    }

    /// The same reason, said of a part of the condition (`where`: the part).
    fn within(self, place: String) -> Manual {
        Manual::new(self.kind, format!("{place}: {}", self.reason))
    }
}

impl std::fmt::Display for Manual {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// Fills `ErrorCase::mapping` of every documented error and `OpIr::inferred_rules`.
pub fn apply(op: &mut OpIr) {
    let mut exceptions = Vec::new();
    let mappings: Vec<Mapping> = op
        .errors
        .iter()
        .map(|e| match recognize::read_condition(op, &e.condition) {
            Ok(reading) => Mapping::Rules {
                unread: reading.unread.map(|m| m.reason),
                rules: reading
                    .rules
                    .into_iter()
                    .map(|rule| CheckedRule {
                        rule,
                        code: e.code,
                        condition: e.condition.clone(),
                        inferred: false,
                    })
                    .collect(),
            },
            Err(manual) => {
                if manual.kind == ManualKind::Conditional {
                    exceptions.extend(shape_exception(op, e));
                }
                Mapping::Manual {
                    kind: manual.kind,
                    reason: manual.reason,
                }
            }
        })
        .collect();
    for (error, mapping) in op.errors.iter_mut().zip(mappings) {
        error.mapping = Some(mapping);
    }
    yield_to_exceptions(op, &exceptions);
    op.inferred_rules = inferred_rules(op);
    reconcile_broadcasts(op);
    reconcile_dtype_correspondences(op);
    read_reduced_shape_rows(op);
    drop_repeated_rules(op);
}

/// "out shape与实际不匹配", "reduce shape与实际不匹配", "self与out的shape不满足计算公式中的推导规则",
/// "out的shape出现如下情况会出错：keepdim为true时…": a row no rule read that holds an output to the
/// shape the op computes, where the doc states that shape as a reduction (`outputs::infer`). The
/// row names the output, or the op has one reduced output.
fn read_reduced_shape_rows(op: &mut OpIr) {
    let outputs = outputs::infer(op);
    let reduced: Vec<(&str, Rule)> = outputs
        .iter()
        .filter_map(|o| match &o.shape {
            Some(crate::ir::ShapeFrom::Reduce {
                input,
                dims,
                keepdim,
                ..
            }) => Some((
                o.param.as_str(),
                Rule::ShapeReduced {
                    param: o.param.clone(),
                    base: input.clone(),
                    dims: dims.clone(),
                    keepdim: keepdim.clone(),
                },
            )),
            _ => None,
        })
        .collect();
    if reduced.is_empty() {
        return;
    }
    let mut mappings = Vec::new();
    for (i, e) in op.errors.iter().enumerate() {
        if !matches!(e.mapping, Some(Mapping::Manual { .. })) {
            continue;
        }
        let c = text::normalize(&e.condition);
        if !recognize::states_computed_shape_mismatch(&c) {
            continue;
        }
        let named: Vec<&Rule> = text::mentions(op, &c)
            .iter()
            .filter_map(|m| reduced.iter().find(|(o, _)| *o == m.param.name))
            .map(|(_, r)| r)
            .collect();
        let rules = match (named.as_slice(), reduced.as_slice()) {
            ([], [(_, only)]) => vec![only.clone()],
            ([], _) => continue,
            (some, _) => some.iter().map(|r| (*r).clone()).collect(),
        };
        let rules = rules
            .into_iter()
            .map(|rule| CheckedRule {
                rule,
                code: e.code,
                condition: e.condition.clone(),
                inferred: false,
            })
            .collect();
        mappings.push((
            i,
            Mapping::Rules {
                rules,
                unread: None,
            },
        ));
    }
    for (i, mapping) in mappings {
        op.errors[i].mapping = Some(mapping);
    }
}

/// A row on the shapes of some tensors that holds only under a condition no rule reads, and the
/// tensors it names.
struct ShapeException {
    condition: String,
    tensors: Vec<String>,
}

fn shape_exception(op: &OpIr, e: &crate::ir::ErrorCase) -> Option<ShapeException> {
    if !SHAPE_ASPECT.is_match(&e.condition) {
        return None;
    }
    let tensors: Vec<String> = text::mentions(op, &e.condition)
        .iter()
        .filter(|m| m.param.role.is_tensor())
        .map(|m| m.param.name.clone())
        .collect();
    (tensors.len() >= 2).then(|| ShapeException {
        condition: e.condition.clone(),
        tensors,
    })
}

/// "输入x和输出y的shape不是完全相同的shape" beside "当输出y的数据类型为int32时，y的尾轴大小不等于x的
/// 尾轴大小的1/8": an unconditional equality of two tensors' shapes, and a row that relates the
/// same two otherwise under a condition. The equality then holds only outside that condition,
/// which no rule reads, so it is not checked: it would reject the calls the exception allows.
fn yield_to_exceptions(op: &mut OpIr, exceptions: &[ShapeException]) {
    for e in &mut op.errors {
        let Some(Mapping::Rules { rules, unread }) = &mut e.mapping else {
            continue;
        };
        let mut yielded = None;
        rules.retain(|r| {
            let Some(x) = shape_equality_tensors(&r.rule).and_then(|ts| {
                // Two distinct tensors: "self最后两维不一致" relates self to itself.
                let named = |x: &&ShapeException| {
                    let mut hit: Vec<&String> =
                        ts.iter().copied().filter(|t| x.tensors.contains(t)).collect();
                    hit.sort();
                    hit.dedup();
                    hit.len() >= 2
                };
                exceptions.iter().find(named)
            }) else {
                return true;
            };
            yielded.get_or_insert(format!(
                "the shape equality yields to “{}”, an exception under a condition no rule reads; not checked",
                x.condition
            ));
            false
        });
        match yielded {
            Some(reason) if rules.is_empty() => {
                e.mapping = Some(Mapping::Manual {
                    kind: ManualKind::Exception,
                    reason,
                })
            }
            Some(reason) => {
                unread.get_or_insert(reason);
            }
            None => {}
        }
    }
}

/// The tensors an unconditional equality of shapes or dims relates.
fn shape_equality_tensors(rule: &Rule) -> Option<Vec<&String>> {
    match rule {
        Rule::ShapeSame { params } => Some(params.iter().collect()),
        Rule::DimsEqual { lhs, rhs, .. }
        | Rule::ShapeSameExcept { lhs, rhs, .. }
        | Rule::DimsScaled { lhs, rhs, .. } => Some(vec![lhs, rhs]),
        _ => None,
    }
}

/// A row's rules are a set: a constraint the doc states twice (in the description and in the
/// usage notes, or "A或B不是2维" read once per tensor named) is checked once.
fn drop_repeated_rules(op: &mut OpIr) {
    for e in &mut op.errors {
        if let Some(Mapping::Rules { rules, .. }) = &mut e.mapping {
            let mut kept: Vec<CheckedRule> = Vec::with_capacity(rules.len());
            for r in rules.drain(..) {
                if !kept.iter().any(|k| k.rule == r.rule) {
                    kept.push(r);
                }
            }
            *rules = kept;
        }
    }
}

/// Checks one first-phase call against the op's rules, in aclnn's order.
pub fn validate_call(op: &OpIr, call: &Call) -> Result<(), AclnnError> {
    aclnn_runtime::check(&op.all_rules(), call)
}

/// Checks no doc row states: for docs without an error table every rule the parameter
/// descriptions imply, by the aclnn convention.
///
/// No product check is inferred from the support list: CANN's op_api has no such check (its
/// unit tests run ops successfully on products their docs mark unsupported, a doc older than the
/// code), so a product is rejected only where an error row says so. The product list still
/// restricts each product's dtypes.
fn inferred_rules(op: &OpIr) -> Vec<CheckedRule> {
    let mut out = Vec::new();
    let documented = op.all_rules();
    if !op.errors.is_empty() {
        out.extend(stated_dtype_equalities(op, &documented));
        out.extend(tensor_list_formats(op, &documented));
        out.extend(stated_output_shapes(op, &documented));
        out.extend(stated_dtype_args(op, &documented));
        out.extend(required_pointer_attributes(op, &documented));
    }
    if op.errors.is_empty() {
        for p in op.params.iter().filter(|p| text::is_checkable(p)) {
            for (rule, code, condition) in infer::param_rules(op, p) {
                out.push(CheckedRule {
                    rule,
                    code,
                    condition,
                    inferred: true,
                });
            }
        }
    }
    out
}

/// "数据类型与x一致" in a tensor's description, where no documented rule already relates the two
/// dtypes: aclnn checks a dtype its parameter table ties to another's, whether or not an error
/// row repeats it.
///
/// An output is held to it only where the relation is all the table says of its dtype (a dtype
/// cell "与logProbs一致") and no error row relates its dtype to any tensor: an output with a
/// dtype list of its own is where mixed-precision ops (a FLOAT32 mean of FLOAT16 data) depart
/// from such statements, and an error row ("target、gradTarget的数据类型不一致") names the
/// relation CANN checks instead.
fn stated_dtype_equalities(op: &OpIr, documented: &[CheckedRule]) -> Vec<CheckedRule> {
    let dtype_relations = || {
        documented
            .iter()
            .filter_map(|r| match unwrap_products(&r.rule) {
                Rule::DtypeSame { params } | Rule::DtypePromotable { params } => {
                    Some(params.clone())
                }
                Rule::DtypeCastable { from, to } => {
                    Some(from.iter().chain([to]).cloned().collect())
                }
                // A dtype named by an aclDataType argument is related to that argument.
                Rule::DtypeIsArg { param, arg } => Some(vec![param.clone(), arg.clone()]),
                _ => None,
            })
    };
    let related = |a: &str, b: &str| {
        dtype_relations().any(|ps| ps.iter().any(|p| p == a) && ps.iter().any(|p| p == b))
    };
    let held = |name: &str| {
        op.params.iter().any(|q| {
            q.name == name
                && match q.role {
                    Role::InputTensor | Role::InputTensorList => true,
                    _ => {
                        q.dtypes.is_empty()
                            && !dtype_relations().any(|ps| ps.iter().any(|p| p == name))
                    }
                }
        })
    };
    let mut out = Vec::new();
    for p in op.params.iter().filter(|p| p.role.is_tensor()) {
        for rule in infer::relation_rules(op, p) {
            let Rule::DtypeSame { params } = &rule else {
                continue;
            };
            let dtypes = |n: &str| -> Vec<aclnn_runtime::DType> {
                op.params
                    .iter()
                    .filter(|q| q.name == n)
                    .flat_map(|q| q.dtypes.values().flatten().copied())
                    .collect()
            };
            let (a, b) = (dtypes(&params[0]), dtypes(&params[1]));
            let can_agree = a.is_empty() || b.is_empty() || a.iter().any(|d| b.contains(d));
            if params.len() == 2
                && params.iter().all(|n| held(n))
                && can_agree
                && !related(&params[0], &params[1])
                && !out.iter().any(|r: &CheckedRule| r.rule == rule)
            {
                out.push(CheckedRule {
                    condition: format!("{}的数据类型与{}不一致（参数说明）", params[0], params[1]),
                    rule,
                    code: status::PARAM_INVALID,
                    inferred: true,
                });
            }
        }
    }
    out
}

/// A tensor list whose table lists plain formats only (ND, NCHW), where no error row checks its
/// format: CANN's tensor-list checks (foreach, index) reject a list of private-format tensors
/// (NC1HWC0, FRACTAL_NZ) whether or not a row names formats. A single tensor is not held to it:
/// CANN's elementwise ops take private-format tensors their table does not list.
fn tensor_list_formats(op: &OpIr, documented: &[CheckedRule]) -> Vec<CheckedRule> {
    let checked = |name: &str| {
        documented.iter().any(
            |r| matches!(unwrap_products(&r.rule), Rule::FormatIn { param, .. } if param == name),
        )
    };
    op.params
        .iter()
        .filter(|p| p.role.is_tensor_list() && !p.formats.is_empty())
        .filter(|p| p.formats.iter().all(|f| !f.is_private()) && !checked(&p.name))
        .map(|p| CheckedRule {
            rule: Rule::FormatIn {
                param: p.name.clone(),
                allowed: p.formats.clone(),
            },
            code: status::PARAM_INVALID,
            condition: format!("{}的数据格式不在支持的范围之内（参数说明）", p.name),
            inferred: true,
        })
        .collect()
}

/// "shape需要与self一致", "shape需要与self和gradOutput进行broadcast之后的shape相等" in an output's
/// description, where no error row speaks of that output's shape: aclnn checks the shape of the
/// tensor it writes, whether or not an error row repeats it (the output-shape check of
/// CheckParams).
///
/// An error row on the output's shape, read or not ("当输出yDtype为int32时，y的尾轴大小不等于x的
/// 尾轴大小的1/8"), is the check instead of the table's plain statement. The relation is held only
/// while neither tensor is empty: CANN's ops return early on an empty tensor, before or after
/// this check, and a table statement says nothing of that order.
fn stated_output_shapes(op: &OpIr, documented: &[CheckedRule]) -> Vec<CheckedRule> {
    let shape_row_names = |name: &str| {
        op.errors.iter().any(|e| {
            let c = text::normalize(&e.condition);
            text::mentions(op, &c).iter().any(|m| m.param.name == name) && SHAPE_ASPECT.is_match(&c)
        }) || documented
            .iter()
            .any(|r| shape_rule_names(unwrap_products(&r.rule), name))
    };
    let mut out = Vec::new();
    let outputs = op
        .params
        .iter()
        .filter(|p| p.role == Role::OutputTensor && !shape_row_names(&p.name))
        // "如果y2Out输出无意义时，shape为[1]": the stated relation is not the only shape.
        .filter(|p| !infer::shape_stated_conditionally(p));
    for p in outputs {
        for rule in infer::relation_rules(op, p) {
            let tensors: Vec<String> = match &rule {
                Rule::ShapeSame { params } if params.len() == 2 => params.clone(),
                Rule::BroadcastShape { params, out } if out == &p.name => {
                    params.iter().chain([out]).cloned().collect()
                }
                _ => continue,
            };
            let rule = while_not_empty(rule, &tensors);
            // Stated in the description and again in the constraints: one rule.
            if out.iter().any(|r: &CheckedRule| r.rule == rule) {
                continue;
            }
            out.push(CheckedRule {
                condition: format!("{}的shape与参数说明不符（参数说明）", p.name),
                rule,
                code: status::PARAM_INVALID,
                inferred: true,
            });
        }
    }
    out
}

/// An integer attribute the table says names an output's dtype ("dstType：指定输出y的数据类型。
/// 支持取值1、27，分别表示FLOAT16、BFLOAT16"), where no error row already ties the two: aclnn
/// checks the output it writes against the dtype it is told to write, as it does for an
/// `aclDataType` argument.
fn stated_dtype_args(op: &OpIr, documented: &[CheckedRule]) -> Vec<CheckedRule> {
    let tied = |out: &str, attr: &str| {
        documented.iter().any(|r| {
            matches!(unwrap_products(&r.rule),
                Rule::DtypeIsArg { param, arg } if param == out && arg == attr)
        })
    };
    let mut rules = Vec::new();
    for attr in &op.params {
        for out in dtype_args::named_outputs(op, attr) {
            if !tied(&out, &attr.name) {
                rules.push(CheckedRule {
                    condition: format!("{out}的数据类型与{}指定的不一致（参数说明）", attr.name),
                    rule: Rule::DtypeIsArg {
                        param: out,
                        arg: attr.name.clone(),
                    },
                    code: status::PARAM_INVALID,
                    inferred: true,
                });
            }
        }
    }
    rules
}

/// A required pointer attribute (`aclIntArray* kernelSize`, `aclScalar* alpha`) that no null row
/// names, in a doc that documents 161001: aclnn's CheckNotNull covers every pointer the op
/// cannot do without, and the doc's row ("传入的self、out是空指针") lists the tensors only.
///
/// Not tensors: a row listing some tensors and not others is the doc's choice (an unlisted
/// tensor is often one CANN lets be null). Not where a null row names any such attribute: its
/// list is then the doc's choice (AvgPool2dBackward's names kernelSize and padding, not stride,
/// which CANN lets be null). Not strings: CANN answers a null `char*` with 161001
/// in some ops and 161002 in others. A doc whose call example passes one null (LstmBackward's
/// outputMask) has the rule demoted by gen's proof.
fn required_pointer_attributes(op: &OpIr, documented: &[CheckedRule]) -> Vec<CheckedRule> {
    // aclnn's objects; a raw host pointer (`float* offsetArray`) is the op's own business.
    const ACL_OBJECTS: [ParamKind; 5] = [
        ParamKind::IntArray,
        ParamKind::FloatArray,
        ParamKind::BoolArray,
        ParamKind::Scalar,
        ParamKind::ScalarList,
    ];
    if !op.errors.iter().any(|e| e.code == status::PARAM_NULLPTR) {
        return Vec::new();
    }
    let named = |name: &str| {
        documented.iter().any(|r| match unwrap_products(&r.rule) {
            Rule::NotNull { params } => params.iter().any(|p| p == name),
            Rule::IsNull { param } => param == name,
            _ => false,
        })
    };
    let attributes = op
        .params
        .iter()
        .filter(|p| p.role == Role::Attribute && ACL_OBJECTS.contains(&p.kind()));
    if attributes.clone().any(|p| named(&p.name)) {
        // "传入的gradOutput、self、kernelSize、padding…是空指针" without stride: the doc chose.
        return Vec::new();
    }
    attributes
        .filter(|p| text::is_pointer(p) && !p.optional)
        .map(|p| CheckedRule {
            rule: Rule::NotNull {
                params: vec![p.name.clone()],
            },
            code: status::PARAM_NULLPTR,
            condition: format!("{}是空指针（参数说明）", p.name),
            inferred: true,
        })
        .collect()
}

/// Whether a shape rule relates `name`'s shape.
fn shape_rule_names(rule: &Rule, name: &str) -> bool {
    match rule {
        Rule::ShapeSame { params } | Rule::BroadcastTogether { params } => {
            params.iter().any(|p| p == name)
        }
        Rule::BroadcastShape { params, out } => out == name || params.iter().any(|p| p == name),
        Rule::Broadcastable { from, to, .. } => from == name || to == name,
        _ => false,
    }
}

/// `rule`, held only while none of `tensors` is empty.
fn while_not_empty(rule: Rule, tensors: &[String]) -> Rule {
    tensors
        .iter()
        .rev()
        .fold(rule, |inner, t| Rule::WhenTensor {
            param: t.clone(),
            state: aclnn_runtime::TensorState::NotEmpty,
            rule: Box::new(inner),
        })
}

/// The relations a parameter's own description states ("shape与self一致", "数据类型与self一致",
/// one-way broadcast, the promotion it is cast from): what the doc says of an output even where
/// no error row checks it (the C++ layer allocates and infers outputs by them).
pub fn described_relations(op: &OpIr, p: &crate::ir::Param) -> Vec<Rule> {
    let mut rules = infer::relation_rules(op, p);
    rules.extend(infer::promotion_rules(op, p));
    rules
}

/// The promotion a tensor's own description states ("数据类型与target的数据类型需满足数据类型
/// 推导规则"): what the op computes in, never a check (no error row points at it).
pub fn described_promotions(op: &OpIr, p: &crate::ir::Param) -> Vec<Rule> {
    infer::promotion_rules(op, p)
}

/// "gradOutput、self和out的shape不匹配" next to "gradOutput的shape单向广播self": the tensor that
/// broadcasts keeps only the rank of the others, not their shape.
fn reconcile_broadcasts(op: &mut OpIr) {
    let pairs: Vec<(String, String)> = op
        .all_rules()
        .iter()
        .filter_map(|r| match unwrap_products(&r.rule) {
            Rule::Broadcastable { from, to, .. } => Some((from.clone(), to.clone())),
            _ => None,
        })
        .collect();
    if pairs.is_empty() {
        return;
    }
    let fix = |rules: &mut Vec<CheckedRule>| {
        let mut out = Vec::with_capacity(rules.len());
        for r in rules.drain(..) {
            out.extend(split_shape_same(r, &pairs));
        }
        *rules = out;
    };
    for e in &mut op.errors {
        if let Some(Mapping::Rules { rules, .. }) = &mut e.mapping {
            fix(rules);
        }
    }
    fix(&mut op.inferred_rules);
}

/// "x和out的数据类型不一致" beside out's table "当x的数据类型为FLOAT32时，输出的数据类型支持FLOAT16
/// 或者BFLOAT16": the row makes a mismatch the error and the table names the mismatches allowed.
/// So out may have x's own dtype or a listed one, and equals x where x has a dtype no statement
/// lists (CANN's ForeachCopy: FLOAT32 to FLOAT32, FLOAT16 or BFLOAT16).
fn reconcile_dtype_correspondences(op: &mut OpIr) {
    let rules = op.all_rules();
    let related = |a: &str, b: &str| {
        rules.iter().any(|r| {
            matches!(&r.rule, Rule::DtypeSame { params }
                if params.len() == 2 && params.iter().any(|p| p == a) && params.iter().any(|p| p == b))
        })
    };
    let mut pairs: Vec<(String, String)> = op
        .params
        .iter()
        .flat_map(|p| {
            p.dtypes_given
                .iter()
                .map(|g| (g.on.clone(), p.name.clone()))
        })
        .filter(|(on, subject)| related(on, subject))
        .collect();
    pairs.dedup();
    for (on, subject) in pairs {
        let covered: Vec<aclnn_runtime::DType> = op
            .params
            .iter()
            .filter(|p| p.name == subject)
            .flat_map(|p| &p.dtypes_given)
            .filter(|g| g.on == on)
            .flat_map(|g| g.when.iter().copied())
            .collect();
        let mut same: Vec<aclnn_runtime::DType> = Vec::new();
        for d in op
            .params
            .iter()
            .filter(|p| p.name == on)
            .flat_map(|p| p.dtypes.values().flatten())
        {
            if !covered.contains(d) && !same.contains(d) {
                same.push(*d);
            }
        }
        let fix = |rules: &mut Vec<CheckedRule>| {
            rules.retain_mut(|r| correspond(&mut r.rule, &on, &subject, &same));
        };
        for e in &mut op.errors {
            if let Some(Mapping::Rules { rules, .. }) = &mut e.mapping {
                fix(rules);
            }
        }
        fix(&mut op.inferred_rules);
    }
}

/// One rule of `reconcile_dtype_correspondences`; false drops it (an equality left for no dtype).
fn correspond(rule: &mut Rule, on: &str, subject: &str, same: &[aclnn_runtime::DType]) -> bool {
    match rule {
        Rule::DtypeSame { params }
            if params.len() == 2
                && params.iter().any(|p| p == on)
                && params.iter().any(|p| p == subject) =>
        {
            if same.is_empty() {
                return false;
            }
            *rule = Rule::WhenDtype {
                param: on.to_string(),
                dtypes: same.to_vec(),
                rule: Box::new(rule.clone()),
            };
        }
        Rule::WhenDtype {
            param,
            dtypes,
            rule: inner,
        } if param == on => {
            if let Rule::DtypeIn { param, allowed } = inner.as_mut() {
                if param == subject {
                    for list in allowed.values_mut() {
                        for d in dtypes.iter() {
                            if !list.contains(d) {
                                list.push(*d);
                            }
                        }
                    }
                }
            }
        }
        _ => {}
    }
    true
}

fn unwrap_products(rule: &Rule) -> &Rule {
    match rule {
        Rule::OnProducts { rule, .. }
        | Rule::When { rule, .. }
        | Rule::WhenStr { rule, .. }
        | Rule::WhenAnyElem { rule, .. }
        | Rule::WhenDtype { rule, .. }
        | Rule::WhenTensor { rule, .. } => unwrap_products(rule),
        other => other,
    }
}

fn split_shape_same(r: CheckedRule, pairs: &[(String, String)]) -> Vec<CheckedRule> {
    let Rule::ShapeSame { params } = &r.rule else {
        return vec![r];
    };
    let broadcasting: Vec<&String> = params
        .iter()
        .filter(|p| pairs.iter().any(|(f, t)| f == *p && params.contains(t)))
        .collect();
    if broadcasting.is_empty() {
        return vec![r];
    }
    let rest: Vec<String> = params
        .iter()
        .filter(|p| !broadcasting.contains(p))
        .cloned()
        .collect();
    let with = |rule| CheckedRule { rule, ..r.clone() };
    let mut out = Vec::new();
    if rest.len() >= 2 {
        out.push(with(Rule::ShapeSame {
            params: rest.clone(),
        }));
    }
    out.push(with(Rule::RankSame {
        params: params.clone(),
    }));
    out
}

/// Share of documented conditions mapped to rules, over `ops`: (mapped, total).
pub fn coverage(ops: &[OpIr]) -> (usize, usize) {
    let total = ops.iter().map(|o| o.errors.len()).sum();
    let mapped = ops
        .iter()
        .flat_map(|o| &o.errors)
        .filter(|e| matches!(e.mapping, Some(Mapping::Rules { .. })))
        .count();
    (mapped, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{ErrorCase, Param, Role};
    use aclnn_runtime::DType;

    fn op_with(conditions: &[(u32, &str)]) -> OpIr {
        let t = |name: &str, role| Param {
            name: name.into(),
            role,
            ty: "aclTensor*".into(),
            ..Default::default()
        };
        OpIr {
            op: "X".into(),
            products: [("ascend910b".into(), true), ("ascend310b".into(), false)]
                .into_iter()
                .collect(),
            params: vec![
                t("gradOutput", Role::InputTensor),
                t("self", Role::InputTensor),
                t("out", Role::OutputTensor),
            ],
            errors: conditions
                .iter()
                .map(|(code, c)| ErrorCase {
                    code: *code,
                    name: status::name(*code).into(),
                    condition: c.to_string(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn every_condition_gets_a_mapping_and_no_product_rule_is_inferred() {
        let mut op = op_with(&[
            (161001, "传入的gradOutput、self或out是空指针。"),
            (161002, "self第1维度不能被group整除。"),
        ]);
        apply(&mut op);
        assert!(matches!(op.errors[0].mapping, Some(Mapping::Rules { .. })));
        assert!(matches!(op.errors[1].mapping, Some(Mapping::Manual { .. })));
        // ascend310b is marked unsupported, yet no row says the call fails there: CANN's op_api
        // has no product check of its own.
        assert!(op.inferred_rules.is_empty(), "{:?}", op.inferred_rules);
        assert_eq!(coverage(&[op]), (1, 2));
    }

    #[test]
    fn a_row_on_the_actual_shape_of_a_reduced_output_checks_the_reduction() {
        let rows = [
            (161002, "dims数组中的维度超出输入tensor的维度范围。"),
            (161002, "out shape与实际不匹配。"),
        ];
        let mut op = op_with(&rows);
        op.params.retain(|p| p.name != "gradOutput");
        op.params.push(Param {
            name: "dims".into(),
            role: Role::Attribute,
            ty: "const aclIntArray*".into(),
            ..Default::default()
        });
        op.params.push(Param {
            name: "keepDims".into(),
            role: Role::Attribute,
            ty: "bool".into(),
            description: "reduce轴的维度是否保留。".into(),
            ..Default::default()
        });
        apply(&mut op);
        let Some(Mapping::Rules { rules, .. }) = &op.errors[1].mapping else {
            panic!("{:?}", op.errors[1].mapping);
        };
        assert_eq!(
            rules[0].rule,
            Rule::ShapeReduced {
                param: "out".into(),
                base: "self".into(),
                dims: "dims".into(),
                keepdim: "keepDims".into(),
            }
        );
        // Without a reduction the doc states, the row stays unread.
        let mut plain = op_with(&[rows[1]]);
        apply(&mut plain);
        assert!(matches!(
            plain.errors[0].mapping,
            Some(Mapping::Manual { .. })
        ));
    }

    #[test]
    fn a_shape_equality_yields_to_an_unread_conditional_exception() {
        let equality = (161002, "输入self和输出out的shape不是完全相同的shape。");
        let mut plain = op_with(&[equality]);
        apply(&mut plain);
        assert!(
            matches!(&plain.errors[0].mapping, Some(Mapping::Rules { rules, .. })
                if rules[0].rule == Rule::ShapeSame { params: vec!["self".into(), "out".into()] }),
            "{:?}",
            plain.errors[0].mapping
        );
        // The same equality beside a row that relates the two otherwise under a condition no
        // prefix reads: it would reject the calls the exception allows.
        let exception = (
            161002,
            "当输出outDtype为int32时，out的尾轴大小不等于self的尾轴大小的1/8。",
        );
        let mut op = op_with(&[equality, exception]);
        apply(&mut op);
        let Some(Mapping::Manual { reason, .. }) = &op.errors[0].mapping else {
            panic!("{:?}", op.errors[0].mapping);
        };
        assert!(
            reason.contains("yields to “当输出outDtype为int32时"),
            "{reason}"
        );
        // A conditional row on other aspects, or on one of the tensors only, is no exception.
        // An equality of one tensor's own dims relates no two tensors the exception names.
        let square = (161002, "self的最后两维不一致。");
        let mut op = op_with(&[square, exception]);
        apply(&mut op);
        assert!(
            matches!(op.errors[0].mapping, Some(Mapping::Rules { .. })),
            "{:?}",
            op.errors[0].mapping
        );
        for other in [
            "当输出outDtype为int32时，out的数据类型与self不一致。",
            "当输出outDtype为int32时，out的尾轴不是偶数。",
        ] {
            let mut op = op_with(&[equality, (161002, other)]);
            apply(&mut op);
            assert!(
                matches!(op.errors[0].mapping, Some(Mapping::Rules { .. })),
                "{other}: {:?}",
                op.errors[0].mapping
            );
        }
    }

    #[test]
    fn a_dtype_equality_of_inputs_stated_in_the_table_is_checked() {
        let mut op = op_with(&[(161002, "self的数据类型不在支持的范围之内。")]);
        op.params[1].description = "数据类型与gradOutput一致。".into();
        op.params[2].description = "数据类型与self一致。".into();
        op.params[2].dtypes = [("ascend910b".into(), vec![DType::Float32])].into();
        let same = |op: &OpIr| -> Vec<Rule> {
            op.inferred_rules
                .iter()
                .map(|r| r.rule.clone())
                .filter(|r| matches!(r, Rule::DtypeSame { .. }))
                .collect()
        };
        let equal = |a: &str, b: &str| Rule::DtypeSame {
            params: vec![a.into(), b.into()],
        };
        let mut listed = op.clone();
        apply(&mut listed);
        // An output with a dtype list of its own may differ in mixed precision.
        assert_eq!(same(&listed), [equal("self", "gradOutput")]);
        // An output whose dtype cell is only "与self一致" is held to it…
        op.params[2].dtypes.clear();
        let mut bare = op.clone();
        apply(&mut bare);
        assert_eq!(
            same(&bare),
            [equal("self", "gradOutput"), equal("out", "self")]
        );
        // …unless an error row relates its dtype to another tensor: that is what CANN checks.
        op.errors.push(ErrorCase {
            code: 161002,
            name: status::name(161002).into(),
            condition: "gradOutput和out的数据类型不一致。".into(),
            ..Default::default()
        });
        apply(&mut op);
        assert_eq!(same(&op), [equal("self", "gradOutput")]);
        // Stated by an error row already: not inferred again.
        let mut op = op_with(&[(161002, "self和gradOutput的数据类型不一致。")]);
        op.params[1].description = "数据类型与gradOutput一致。".into();
        apply(&mut op);
        assert!(!op
            .inferred_rules
            .iter()
            .any(|r| matches!(r.rule, Rule::DtypeSame { .. })));
    }

    #[test]
    fn a_required_acl_object_attribute_no_null_row_names_is_checked_for_null() {
        let attr = |name: &str, ty: &str| Param {
            name: name.into(),
            role: Role::Attribute,
            ty: ty.into(),
            ..Default::default()
        };
        let with_attrs = |conditions: &[(u32, &str)]| {
            let mut op = op_with(conditions);
            op.params.extend([
                attr("kernelSize", "const aclIntArray*"),
                attr("alpha", "const aclScalar*"),
                attr("mode", "const char*"),
                attr("offsetArray", "float*"),
                Param {
                    optional: true,
                    ..attr("strideOptional", "const aclIntArray*")
                },
            ]);
            op
        };
        let nulls = |op: &OpIr| -> Vec<Rule> {
            op.inferred_rules
                .iter()
                .filter(|r| r.code == status::PARAM_NULLPTR)
                .map(|r| r.rule.clone())
                .collect()
        };
        let not_null = |p: &str| Rule::NotNull {
            params: vec![p.into()],
        };
        let mut op = with_attrs(&[(161001, "传入的self、out是空指针。")]);
        apply(&mut op);
        // Not gradOutput (a tensor the row leaves out), not the string, the raw host pointer or
        // the optional list.
        assert_eq!(nulls(&op), [not_null("kernelSize"), not_null("alpha")]);
        // A row naming one attribute chose which: alpha may be null.
        let mut named = with_attrs(&[(161001, "传入的self、out、kernelSize是空指针。")]);
        apply(&mut named);
        assert!(nulls(&named).is_empty());
        // A doc that documents no 161001 states nothing of nulls.
        let mut silent = with_attrs(&[(161002, "self的数据类型不在支持的范围之内。")]);
        apply(&mut silent);
        assert!(nulls(&silent).is_empty());
    }

    #[test]
    fn an_output_shape_stated_in_the_table_is_checked_on_non_empty_tensors() {
        use aclnn_runtime::TensorState;
        let shapes = |op: &OpIr| -> Vec<Rule> {
            op.inferred_rules
                .iter()
                .filter(|r| r.condition.contains("shape"))
                .map(|r| r.rule.clone())
                .collect()
        };
        let not_empty = |t: &str, rule: Rule| Rule::WhenTensor {
            param: t.into(),
            state: TensorState::NotEmpty,
            rule: Box::new(rule),
        };
        let mut op = op_with(&[(161002, "self的数据类型不在支持的范围之内。")]);
        op.params[2].description = "shape需要与self一致。".into();
        let mut same = op.clone();
        apply(&mut same);
        let rule = Rule::ShapeSame {
            params: vec!["out".into(), "self".into()],
        };
        assert_eq!(shapes(&same), [not_empty("out", not_empty("self", rule))]);
        // The broadcast result of two inputs.
        op.params[2].description =
            "shape需要与self和gradOutput进行broadcast之后的shape相等。".into();
        let mut broadcast = op.clone();
        apply(&mut broadcast);
        assert_eq!(shapes(&broadcast).len(), 1);
        assert!(matches!(
            &shapes(&broadcast)[0],
            Rule::WhenTensor { rule, .. } if matches!(&**rule, Rule::WhenTensor { rule, .. }
                if matches!(&**rule, Rule::WhenTensor { rule, .. }
                    if matches!(&**rule, Rule::BroadcastShape { out, .. } if out == "out")))
        ));
        // A shape computed from others is no equality ("A@B计算后的结果").
        op.params[2].description = "shape需要与self@gradOutput计算后的结果一致。".into();
        let mut computed = op.clone();
        apply(&mut computed);
        assert!(shapes(&computed).is_empty());
        // A shape stated under a condition too ("如果…时，shape为[1]") is not the only shape.
        op.params[2].description = "shape需要与self一致。如果out输出无意义时，shape为[1]。".into();
        let mut conditional = op.clone();
        apply(&mut conditional);
        assert!(shapes(&conditional).is_empty());
        // An error row on the output's shape, read or not, is the check instead.
        op.params[2].description = "shape需要与self一致。".into();
        op.errors.push(ErrorCase {
            code: 161002,
            name: status::name(161002).into(),
            condition: "当self为INT32时，out的尾轴不为self尾轴的1/8。".into(),
            ..Default::default()
        });
        apply(&mut op);
        assert!(shapes(&op).is_empty());
    }

    #[test]
    fn a_tensor_list_in_plain_formats_rejects_private_ones() {
        use aclnn_runtime::Format;
        let mut op = op_with(&[(161002, "x、out的数据类型不一致。")]);
        op.params[1].role = Role::InputTensorList;
        op.params[1].formats = vec![Format::Nd];
        op.params[2].formats = vec![Format::Nd];
        let mut list = op.clone();
        apply(&mut list);
        let formats: Vec<&Rule> = list
            .inferred_rules
            .iter()
            .map(|r| &r.rule)
            .filter(|r| matches!(r, Rule::FormatIn { .. }))
            .collect();
        // The list only: a single tensor of an elementwise op takes private formats.
        assert_eq!(
            formats,
            [&Rule::FormatIn {
                param: "self".into(),
                allowed: vec![Format::Nd]
            }]
        );
        // A list that may be private, or whose format a row checks already, gets none.
        op.params[1].formats.push(Format::Nc1hwc0);
        apply(&mut op);
        assert!(!op
            .inferred_rules
            .iter()
            .any(|r| matches!(r.rule, Rule::FormatIn { .. })));
        let mut checked = op_with(&[(161002, "self的数据格式不在支持的范围之内。")]);
        checked.params[1].role = Role::InputTensorList;
        checked.params[1].formats = vec![Format::Nd];
        apply(&mut checked);
        assert!(!checked
            .inferred_rules
            .iter()
            .any(|r| matches!(r.rule, Rule::FormatIn { .. })));
    }

    /// "self和out的数据类型不一致" with out's table listing conversions from self: out may have
    /// self's dtype or a listed one; where self's dtype has no listed conversion, they are equal.
    #[test]
    fn a_dtype_mismatch_row_allows_the_conversions_the_table_lists() {
        let mut op = op_with(&[
            (161002, "self、out的数据类型不在支持的范围之内。"),
            (161002, "self和out的数据类型不一致。"),
        ]);
        let on = |ds: &[DType]| -> std::collections::BTreeMap<crate::ir::ProductId, Vec<DType>> {
            [("ascend910b".into(), ds.to_vec())].into()
        };
        op.params[1].dtypes = on(&[DType::Float32, DType::Float16, DType::Int32]);
        op.params[2].dtypes = on(&[
            DType::Float32,
            DType::Float16,
            DType::BFloat16,
            DType::Int32,
        ]);
        op.params[2].dtypes_given = vec![crate::ir::DtypesGiven {
            on: "self".into(),
            when: vec![DType::Float32],
            allowed: vec![DType::Float16, DType::BFloat16],
            products: Vec::new(),
        }];
        apply(&mut op);
        let call = |s: DType, o: DType| {
            let t = |d| {
                aclnn_runtime::Arg::Tensor(aclnn_runtime::TensorDesc::new(
                    &[2],
                    d,
                    aclnn_runtime::Format::Nd,
                ))
            };
            Call {
                product: "ascend910b".into(),
                args: [("self".to_string(), t(s)), ("out".to_string(), t(o))].into(),
            }
        };
        let ok = |s, o| validate_call(&op, &call(s, o)).is_ok();
        assert!(ok(DType::Float32, DType::Float32));
        assert!(ok(DType::Float32, DType::BFloat16));
        assert!(ok(DType::Int32, DType::Int32));
        assert!(!ok(DType::Int32, DType::Float32));
        assert!(!ok(DType::Float16, DType::Float32));
    }

    #[test]
    fn broadcasting_tensor_leaves_shape_equality() {
        let mut op = op_with(&[
            (161002, "gradOutput、self和out的shape不匹配。"),
            (
                161002,
                "gradOutput的shape不满足单向广播self的shape(仅支持HW维度)",
            ),
        ]);
        apply(&mut op);
        let Some(Mapping::Rules { rules, .. }) = &op.errors[0].mapping else {
            panic!("not mapped")
        };
        let kinds: Vec<&Rule> = rules.iter().map(|r| &r.rule).collect();
        assert_eq!(
            kinds,
            vec![
                &Rule::ShapeSame {
                    params: vec!["self".into(), "out".into()]
                },
                &Rule::RankSame {
                    params: vec!["gradOutput".into(), "self".into(), "out".into()]
                },
            ]
        );
    }

    #[test]
    fn docs_without_error_table_get_inferred_rules() {
        let mut op = op_with(&[]);
        op.params[0].description = "数据类型与self一致".into();
        apply(&mut op);
        assert!(op.inferred_rules.iter().all(|r| r.inferred));
        assert!(op
            .inferred_rules
            .iter()
            .any(|r| r.code == status::PARAM_NULLPTR));
        assert!(op.inferred_rules.iter().any(|r| r.rule
            == Rule::DtypeSame {
                params: vec!["gradOutput".into(), "self".into()]
            }));
    }
}
