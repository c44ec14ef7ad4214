//! Test cases from the spec: a valid baseline call per product, and for every rule a mutated call
//! that fails with that rule's code without tripping an earlier rule first, plus calls that are
//! valid on one product and rejected on another.
//!
//! Every case is verified against the rule interpreter before it is kept, so a case's expected
//! status is a fact about the rules, not a guess. Deterministic: same IR, same cases.

mod baseline;
mod conditions;
mod dims;
mod dtypes;
mod formats;
mod nulls;
mod products;
mod prove;
mod satisfy;
mod shapes;
mod values;

pub use crate::ir::{Case, CaseSet, Expect};
pub use baseline::baseline;
use baseline::*;
pub use prove::{example_calls, prove, rules_for_example, ExampleCall};

use crate::ir::{OpIr, ParamKind, Role};
use aclnn_runtime::check::eval;
use aclnn_runtime::{
    status, Arg, Call, CheckedRule, DType, Factor, Family, Format, Product, Rule, TensorDesc,
};
use std::collections::{BTreeMap, BTreeSet};

/// Synthesizes every case of `op` (whose rules the rules stage has filled).
pub fn synthesize(op: &OpIr) -> CaseSet {
    let rules = op.all_rules();
    let mut set = CaseSet::default();
    let mut baselines = BTreeMap::new();
    for product in supported_products(op) {
        let call = baseline(op, &rules, &product);
        match first_failure(&rules, &call) {
            None => {
                push(
                    &mut set.cases,
                    format!("baseline_{product}"),
                    call.clone(),
                    valid(),
                );
                baselines.insert(product, call);
            }
            Some(j) => {
                set.untested.insert(
                    j,
                    format!("no valid baseline call on {product}: this rule rejects it"),
                );
            }
        }
    }
    for (i, checked) in rules.iter().enumerate() {
        match mutate_for(op, &rules, i, checked, &baselines) {
            Ok(found) => {
                for (name, call) in found {
                    push(&mut set.cases, name, call, expect_rule(i, checked));
                }
            }
            Err(Untestable(reason)) => {
                set.untested.entry(i).or_insert(reason);
            }
        }
    }
    set.cases
        .extend(cross_product_cases(op, &rules, &baselines));
    dedup_names(&mut set.cases);
    set
}

fn valid() -> Expect {
    Expect {
        status: status::SUCCESS,
        name: status::name(status::SUCCESS).into(),
        condition: String::new(),
        rule: None,
    }
}

fn expect_rule(i: usize, checked: &CheckedRule) -> Expect {
    Expect {
        status: checked.code,
        name: status::name(checked.code).into(),
        condition: checked.condition.clone(),
        rule: Some(i),
    }
}

fn push(cases: &mut Vec<Case>, name: String, call: Call, expect: Expect) {
    cases.push(Case { name, call, expect });
}

/// Appends `_2`, `_3`... to repeated names so every case has its own file.
fn dedup_names(cases: &mut [Case]) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for case in cases.iter_mut() {
        let n = seen.entry(case.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            case.name = format!("{}_{}", case.name, n);
        }
    }
}

/// Supported products the runtime knows, in id order.
fn supported_products(op: &OpIr) -> Vec<String> {
    op.supported_products()
        .filter(|p| Product::parse(p).is_some())
        .map(str::to_string)
        .collect()
}

/// Index of the first rule (in checking order) that rejects `call`.
pub fn first_failure(rules: &[CheckedRule], call: &Call) -> Option<usize> {
    rules.iter().position(|r| eval(&r.rule, call).is_err())
}

// ---------------------------------------------------------------------------------------------
// Baseline: a call every rule accepts.

/// The rules that hold on `product` (unwrapping `OnProducts` where it applies).
fn active_rules<'a>(rules: &'a [CheckedRule], product: &str) -> Vec<&'a Rule> {
    rules
        .iter()
        .filter_map(|r| active(&r.rule, product))
        .collect()
}

fn active<'a>(rule: &'a Rule, product: &str) -> Option<&'a Rule> {
    match rule {
        Rule::OnProducts { products, rule } => {
            if products.iter().any(|p| p == product) {
                active(rule, product)
            } else {
                None
            }
        }
        other => Some(other),
    }
}

/// Groups of params that the rules tie together (same shape, same dtype, same format).
struct Groups {
    shape: UnionFind,
    dtype: UnionFind,
    format: UnionFind,
}

fn groups(rules: &[&Rule]) -> Groups {
    let mut g = Groups {
        shape: UnionFind::default(),
        dtype: UnionFind::default(),
        format: UnionFind::default(),
    };
    // A conditional tie holds in the baseline too: the condition may well hold there.
    let mut all: Vec<&Rule> = Vec::new();
    for rule in rules {
        let mut r: &Rule = rule;
        all.push(r);
        while let Rule::When { rule, .. }
        | Rule::WhenStr { rule, .. }
        | Rule::WhenAnyElem { rule, .. }
        | Rule::WhenDtype { rule, .. }
        | Rule::WhenTensor { rule, .. } = r
        {
            r = rule;
            all.push(r);
        }
    }
    for rule in all {
        match rule {
            Rule::ShapeSame { params }
            | Rule::RankSame { params }
            | Rule::BroadcastTogether { params } => g.shape.join_all(params),
            Rule::Broadcastable { from, to, .. } => g.shape.join(from, to),
            Rule::BroadcastShape { params, out } => {
                params.iter().for_each(|p| g.shape.join(p, out));
            }
            // Equal shapes meet a bound by another tensor's dims.
            Rule::DimsAtMost { lhs, rhs, .. } => g.shape.join(lhs, rhs),
            Rule::DtypeSame { params } => g.dtype.join_all(params),
            // Tensors named by one aclDataType argument share its dtype.
            Rule::DtypeIsArg { param, arg } => g.dtype.join(&format!("@{arg}"), param),
            Rule::FormatSame { params } => g.format.join_all(params),
            _ => {}
        }
    }
    g
}

#[derive(Default)]
struct UnionFind {
    parent: BTreeMap<String, String>,
}

impl UnionFind {
    fn find(&self, x: &str) -> String {
        let mut cur = x.to_string();
        // Paths stay short (a handful of params), so no compression is needed.
        while let Some(p) = self.parent.get(&cur) {
            if *p == cur {
                break;
            }
            cur = p.clone();
        }
        cur
    }

    fn join(&mut self, a: &str, b: &str) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(rb, ra);
        }
    }

    fn join_all(&mut self, params: &[String]) {
        for pair in params.windows(2) {
            self.join(&pair[0], &pair[1]);
        }
    }

    fn members<'a>(&self, x: &str, all: impl Iterator<Item = &'a str>) -> Vec<String> {
        let root = self.find(x);
        all.filter(|p| self.find(p) == root)
            .map(str::to_string)
            .collect()
    }
}

/// Candidate mutations of a rule on a baseline; the first one the rule itself rejects is kept.
fn mutate_for(
    op: &OpIr,
    rules: &[CheckedRule],
    i: usize,
    checked: &CheckedRule,
    baselines: &BTreeMap<String, Call>,
) -> Result<Vec<(String, Call)>, Untestable> {
    if baselines.is_empty() {
        return Err(Untestable("no valid baseline call to mutate".into()));
    }
    let mut found = Vec::new();
    let mut tripped = BTreeSet::new();
    for (product, base) in products_for(&checked.rule, baselines) {
        let active = active_rules(rules, &product);
        for (name, candidates) in mutations(op, rules, &checked.rule, base, &product) {
            for call in candidates
                .into_iter()
                .flat_map(|c| with_shapes_rederived(&active, c))
            {
                match first_failure(rules, &call) {
                    Some(j) if j == i => {
                        found.push((name.clone(), call));
                        break;
                    }
                    Some(j) => {
                        tripped.insert(j);
                    }
                    None => {}
                }
            }
        }
        if !found.is_empty() {
            return Ok(found);
        }
    }
    Err(Untestable(match tripped.iter().next() {
        Some(j) => format!(
            "every mutation tripped an earlier rule first (rule #{j}: {})",
            rules[*j].condition
        ),
        None => "no mutation could break this rule alone".into(),
    }))
}

/// Why a rule gets no case that breaks it alone (the audit shows it as "not tested: …").
struct Untestable(String);

/// The baselines a rule can be exercised on: its own products for `OnProducts`, else all.
fn products_for<'a>(rule: &Rule, baselines: &'a BTreeMap<String, Call>) -> Vec<(String, &'a Call)> {
    let all = baselines.iter().map(|(p, c)| (p.clone(), c));
    match rule {
        Rule::OnProducts { products, .. } => all.filter(|(p, _)| products.contains(p)).collect(),
        _ => all.collect(),
    }
}

/// Mutated calls under the name of the case they make.
type NamedCalls = Vec<(String, Vec<Call>)>;

/// The calls that break `rule` on `base`, named, by the rule's family.
fn mutations(
    op: &OpIr,
    rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    product: &str,
) -> NamedCalls {
    match rule.family() {
        Family::Products => products::mutate(op, rules, rule, base, product),
        Family::Nulls => nulls::mutate(op, rules, rule, base, product),
        Family::Dtypes => dtypes::mutate(op, rules, rule, base, product),
        Family::Formats => formats::mutate(op, rules, rule, base, product),
        Family::Shapes => shapes::mutate(op, rules, rule, base, product),
        Family::Dims => dims::mutate(op, rules, rule, base, product),
        Family::Values => values::mutate(op, rules, rule, base, product),
        Family::Conditions => conditions::mutate(op, rules, rule, base, product),
    }
}

/// A copy of `base` in which the `When` condition holds, if the attribute can be set so.
fn satisfy_when(
    base: &Call,
    param: &str,
    index: Option<usize>,
    values: &[i64],
    negate: bool,
) -> Option<Call> {
    let want = if negate {
        values.iter().max().map_or(0, |m| m + 1)
    } else {
        *values.first()?
    };
    let arg = match (base.args.get(param), index) {
        (Some(Arg::Bool(_)), None) => Arg::Bool(want != 0),
        (Some(Arg::Int(_)) | None, None) => Arg::Int(want),
        (Some(Arg::BoolArray(v)), Some(i)) => {
            let mut v = v.clone();
            v.resize(v.len().max(i + 1), false);
            v[i] = want != 0;
            Arg::BoolArray(v)
        }
        (Some(Arg::IntArray(v)), Some(i)) => {
            let mut v = v.clone();
            v.resize(v.len().max(i + 1), 0);
            v[i] = want;
            Arg::IntArray(v)
        }
        _ => return None,
    };
    Some(with_arg(base, param, arg))
}

fn out_of_range(min: Option<i64>, max: Option<i64>) -> Vec<i64> {
    [
        max.map(|m| m.saturating_add(1)),
        min.map(|m| m.saturating_sub(1)),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn set_first_dim(t: &mut TensorDesc, value: i64) {
    if t.shape.is_empty() {
        t.shape.push(value);
    } else {
        t.shape[0] = value;
    }
}

fn make_non_contiguous(t: &mut TensorDesc) {
    if t.shape.len() < 2 {
        t.shape = vec![2, 2];
    }
    let n = t.shape.len();
    let mut strides = vec![1i64; n];
    for k in (0..n - 1).rev() {
        strides[k] = strides[k + 1] * t.shape[k + 1];
    }
    strides.swap(n - 1, n - 2);
    t.strides = Some(strides);
}

fn with_product(base: &Call, product: &str) -> Call {
    Call {
        product: product.to_string(),
        args: base.args.clone(),
    }
}

fn with_arg(base: &Call, name: &str, arg: Arg) -> Call {
    let mut call = base.clone();
    call.args.insert(name.to_string(), arg);
    call
}

fn tensor_of<'a>(call: &'a Call, name: &str) -> Option<&'a TensorDesc> {
    match call.args.get(name)? {
        Arg::Tensor(t) => Some(t),
        Arg::TensorList(ts) => ts.first(),
        _ => None,
    }
}

fn int_list(call: &Call, name: &str) -> Option<Vec<i64>> {
    call.args.get(name)?.as_int_list()
}

/// A copy of `base` with `edit` applied to every tensor of `names`.
/// `base` with a leading dim of 1 on every tensor that has dims: the same call one rank up.
fn with_leading_dim(base: &Call) -> Call {
    let names: Vec<String> = base.args.keys().cloned().collect();
    set_tensors(base, &names, |t| {
        if !t.shape.is_empty() {
            let outer = t.shape[0].max(1);
            t.shape.insert(0, 1);
            if let Some(strides) = &mut t.strides {
                let step = strides.first().copied().unwrap_or(1) * outer;
                strides.insert(0, step);
            }
        }
    })
}

fn set_tensors(base: &Call, names: &[String], edit: impl Fn(&mut TensorDesc)) -> Call {
    let mut call = base.clone();
    for name in names {
        match call.args.get_mut(name) {
            Some(Arg::Tensor(t)) => edit(t),
            Some(Arg::TensorList(ts)) => ts.iter_mut().for_each(&edit),
            _ => {}
        }
    }
    call
}

// ---------------------------------------------------------------------------------------------
// Cross-product cases: one dtype, valid on one product and rejected on another.

fn cross_product_cases(
    op: &OpIr,
    rules: &[CheckedRule],
    baselines: &BTreeMap<String, Call>,
) -> Vec<Case> {
    let mut cases = Vec::new();
    // One valid and one rejected case per dtype group, product and dtype: members of a group
    // (self and gradInput "must match") would otherwise give the same call twice.
    let mut seen = BTreeSet::new();
    for p in op.params.iter().filter(|p| p.role.is_tensor()) {
        for (on, base_on) in baselines {
            let Some(ok_on) = p.dtypes.get(on) else {
                continue;
            };
            for (off, base_off) in baselines {
                let Some(ok_off) = p.dtypes.get(off) else {
                    continue;
                };
                let Some(d) = ok_on.iter().copied().find(|d| !ok_off.contains(d)) else {
                    continue;
                };
                let mates = groups(&active_rules(rules, on))
                    .dtype
                    .members(&p.name, tensor_params(op));
                let valid_call = set_tensors(base_on, &mates, |t| t.dtype = d);
                let rejected = set_tensors(base_off, &mates, |t| t.dtype = d);
                let (Some(j), None) = (
                    first_failure(rules, &rejected),
                    first_failure(rules, &valid_call),
                ) else {
                    continue;
                };
                let stem = format!("{}_{}", p.name, d.as_str().to_ascii_lowercase());
                if seen.insert((mates.clone(), on.clone(), d, true)) {
                    push(
                        &mut cases,
                        format!("cross_{stem}_valid_on_{on}"),
                        valid_call,
                        valid(),
                    );
                }
                if seen.insert((mates.clone(), off.clone(), d, false)) {
                    push(
                        &mut cases,
                        format!("cross_{stem}_rejected_on_{off}"),
                        rejected,
                        expect_rule(j, &rules[j]),
                    );
                }
            }
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{self, ParamFixture};
    use crate::ir::{Mapping, Param};
    use aclnn_runtime::TensorState;

    fn tensor(name: &str, role: Role, dtypes: &[DType]) -> Param {
        Param {
            ty: "const aclTensor*".into(),
            ..fixture::tensor(name, role)
        }
        .with_dtypes(&["ascend910"], &[DType::Float32])
        .with_dtypes(&["ascend910b"], dtypes)
    }

    fn rule(rule: Rule, code: u32, condition: &str) -> CheckedRule {
        CheckedRule {
            rule,
            code,
            condition: condition.into(),
            inferred: false,
        }
    }

    /// A small op: two tensors that must match, a list attribute, and product-dependent dtypes.
    fn op() -> OpIr {
        let mut op = OpIr {
            op: "Toy".into(),
            ..OpIr::default()
        };
        op.products = [("ascend910".into(), true), ("ascend910b".into(), true)]
            .into_iter()
            .collect();
        op.params = vec![
            tensor(
                "self",
                Role::InputTensor,
                &[DType::Float32, DType::BFloat16],
            ),
            tensor(
                "out",
                Role::OutputTensor,
                &[DType::Float32, DType::BFloat16],
            ),
            Param {
                name: "kernel".into(),
                role: Role::Attribute,
                ty: "const aclIntArray*".into(),
                ..Param::default()
            },
        ];
        let dtypes = |p: &str| Rule::DtypeIn {
            param: p.into(),
            allowed: (op.params[0].dtypes.iter())
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        };
        let rules = vec![
            rule(
                Rule::NotNull {
                    params: vec!["self".into(), "out".into()],
                },
                161001,
                "null",
            ),
            rule(dtypes("self"), 161002, "dtype"),
            rule(
                Rule::ShapeSame {
                    params: vec!["self".into(), "out".into()],
                },
                161002,
                "shape",
            ),
            rule(
                Rule::RankIn {
                    param: "self".into(),
                    min: 2,
                    max: 4,
                },
                161002,
                "rank",
            ),
            rule(
                Rule::ListLenIn {
                    param: "kernel".into(),
                    lens: vec![1, 2],
                },
                161002,
                "len",
            ),
        ];
        op.errors = vec![crate::ir::ErrorCase {
            code: 161002,
            name: "ACLNN_ERR_PARAM_INVALID".into(),
            condition: "all".into(),
            mapping: Some(Mapping::Rules {
                rules,
                unread: None,
            }),
            ..Default::default()
        }];
        op
    }

    #[test]
    fn baselines_pass_every_rule_on_every_product() {
        let op = op();
        let rules = op.all_rules();
        for product in ["ascend910", "ascend910b"] {
            let call = baseline(&op, &rules, product);
            assert_eq!(first_failure(&rules, &call), None, "{call:?}");
            assert_eq!(call.args["kernel"], Arg::IntArray(vec![1, 1]));
        }
    }

    #[test]
    fn every_rule_gets_a_case_that_trips_exactly_it() {
        let op = op();
        let rules = op.all_rules();
        let set = synthesize(&op);
        assert!(set.untested.is_empty(), "{:?}", set.untested);
        assert_eq!(set.tested_rules().len(), rules.len());
        for case in &set.cases {
            let got = first_failure(&rules, &case.call);
            assert_eq!(got, case.expect.rule, "{}", case.name);
            let status = aclnn_runtime::check(&rules, &case.call)
                .err()
                .map_or(0, |e| e.code);
            assert_eq!(status, case.expect.status, "{}", case.name);
        }
    }

    #[test]
    fn a_tensor_dtype_list_stated_against_another_tensor_is_met_by_the_baseline() {
        let mut op = op();
        op.params.push(tensor(
            "scalar",
            Role::InputTensor,
            &[DType::Float32, DType::Float16],
        ));
        // "当self的数据类型为FLOAT32时，scalar的数据类型支持FLOAT16".
        push_rule(
            &mut op,
            Rule::WhenDtype {
                param: "self".into(),
                dtypes: vec![DType::Float32],
                rule: Box::new(Rule::DtypeIn {
                    param: "scalar".into(),
                    allowed: [("ascend910b".to_string(), vec![DType::Float16])]
                        .into_iter()
                        .collect(),
                }),
            },
            "scalar的数据类型不在支持的范围之内",
        );
        let rules = op.all_rules();
        let call = baseline(&op, &rules, "ascend910b");
        assert_eq!(
            tensor_of(&call, "self").map(|t| t.dtype),
            Some(DType::Float32)
        );
        assert_eq!(
            tensor_of(&call, "scalar").map(|t| t.dtype),
            Some(DType::Float16)
        );
        assert_eq!(first_failure(&rules, &call), None, "{call:?}");
        let set = synthesize(&op);
        assert!(set.untested.is_empty(), "{:?}", set.untested);
    }

    #[test]
    fn a_dim_multiple_gets_a_baseline_that_meets_it_and_a_case_that_breaks_it() {
        let mut op = op();
        push_rule(
            &mut op,
            Rule::DimMultipleOf {
                param: "self".into(),
                dim: -1,
                dim_attr: None,
                by: 8,
            },
            "self的最后一维不能被8整除",
        );
        assert_baseline_and_case(&op, "not_multiple_of_8");
    }

    #[test]
    fn a_string_attribute_gets_a_listed_baseline_and_a_case_outside_the_list() {
        let mut op = op();
        op.params
            .push(crate::fixture::attr("roundMode", "const char*", &[]));
        push_rule(
            &mut op,
            Rule::StrIn {
                param: "roundMode".into(),
                values: vec!["round".into(), "floor".into()],
            },
            "roundMode不在有效取值范围",
        );
        let rules = op.all_rules();
        let call = baseline(&op, &rules, "ascend910b");
        assert_eq!(call.args["roundMode"], Arg::Str("round".into()));
        assert_eq!(first_failure(&rules, &call), None, "{call:?}");
        let set = synthesize(&op);
        assert!(set.untested.is_empty(), "{:?}", set.untested);
        let case = set
            .cases
            .iter()
            .find(|c| c.name.contains("value_roundMode_not_enumerated"))
            .expect("a case for StrIn");
        assert!(
            matches!(&case.call.args["roundMode"], Arg::Str(v) if v != "round" && v != "floor")
        );
        assert_eq!(case.expect.status, 161002);
    }

    #[test]
    fn integer_attributes_pinned_to_sizes_get_a_baseline_that_meets_them_and_cases_that_break_them()
    {
        let mut op = op();
        for name in ["N", "C", "HxW", "group"] {
            op.params.push(Param {
                name: name.into(),
                role: Role::Attribute,
                ty: "int64_t".into(),
                ..Param::default()
            });
        }
        let attr = |a: &str| Factor::Attr(a.into());
        // The baseline solves N*C*HxW for self's element count and keeps group a divisor of C.
        for (rule, condition) in [
            (
                Rule::ProductsEqual {
                    lhs: vec![Factor::Numel("self".into())],
                    rhs: vec![attr("N"), attr("C"), attr("HxW")],
                },
                "self的元素数量不等于N*C*HxW",
            ),
            (
                Rule::AttrMultipleOf {
                    param: "C".into(),
                    by: "group".into(),
                },
                "C不能被group整除",
            ),
        ] {
            push_rule(&mut op, rule, condition);
        }
        assert_baseline_and_case(&op, "product_self_mismatch");
        assert_baseline_and_case(&op, "value_C_not_multiple_of_group");
    }

    #[test]
    fn an_excluded_value_gets_a_baseline_off_it_and_a_case_on_it() {
        let mut op = op();
        op.params.push(Param {
            name: "k".into(),
            role: Role::Attribute,
            ty: "int64_t".into(),
            ..Param::default()
        });
        push_rule(
            &mut op,
            Rule::ValueNot {
                param: "k".into(),
                value: 0,
            },
            "k等于0",
        );
        assert_baseline_and_case(&op, "value_k_is_0");
    }

    #[test]
    fn a_baseline_leaves_off_a_condition_it_cannot_meet() {
        // "reduction是none时，grad的维数不是3", "reduction不是none时，grad的元素个数不为1": the
        // 2-D baseline grad meets the second under reduction 1, not the first under 0.
        let mut op = op();
        op.params.push(Param {
            name: "grad".into(),
            ..op.params[0].clone()
        });
        op.params.push(Param {
            name: "reduction".into(),
            role: Role::Attribute,
            ty: "int64_t".into(),
            ..Param::default()
        });
        let when = |negate, rule| Rule::When {
            param: "reduction".into(),
            index: None,
            values: vec![0],
            negate,
            rule: Box::new(rule),
        };
        let rank_3 = Rule::RankIn {
            param: "grad".into(),
            min: 3,
            max: 3,
        };
        let one_element = Rule::NumelIn {
            param: "grad".into(),
            values: vec![1],
        };
        let range = Rule::IntInRange {
            param: "reduction".into(),
            min: Some(0),
            max: Some(2),
        };
        push_rule(&mut op, range, "reduction值不在0~2范围之内");
        push_rule(
            &mut op,
            when(false, rank_3),
            "reduction是none时，grad的维数不是3",
        );
        push_rule(
            &mut op,
            when(true, one_element),
            "reduction不是none时，grad的元素个数不为1",
        );
        let rules = op.all_rules();
        let call = baseline(&op, &rules, "ascend910b");
        assert_eq!(first_failure(&rules, &call), None, "{call:?}");
        assert_ne!(call.args.get("reduction"), Some(&Arg::Int(0)));
        let set = synthesize(&op);
        assert!(set.untested.is_empty(), "{:?}", set.untested);
    }

    #[test]
    fn a_dim_range_gets_a_baseline_inside_and_cases_on_either_side() {
        let mut op = op();
        push_rule(
            &mut op,
            Rule::DimInRange {
                param: "self".into(),
                dim: 0,
                min: Some(3),
                max: Some(256),
            },
            "self的第一维度超出范围[3, 256]",
        );
        assert_baseline_and_case(&op, "dim_self_below_range");
        assert_baseline_and_case(&op, "dim_self_above_range");
    }

    #[test]
    fn a_channel_match_gets_a_case_that_breaks_it() {
        let mut op = op();
        op.params.push(Param {
            name: "weight".into(),
            ..op.params[0].clone()
        });
        push_rule(
            &mut op,
            Rule::DimMatchesChannel {
                param: "weight".into(),
                dim: 0,
                tensor: "self".into(),
                layout_attr: None,
            },
            "weight的shape与self的channel轴不一致",
        );
        let set = synthesize(&op);
        assert!(set.untested.is_empty(), "{:?}", set.untested);
        assert!(set.cases.iter().any(|c| c.name.contains("self_channel")));
    }

    /// Adds `rule` (161002, `condition`) to the op's first documented error.
    fn push_rule(op: &mut OpIr, checked: Rule, condition: &str) {
        if let Some(Mapping::Rules { rules, .. }) = &mut op.errors[0].mapping {
            rules.push(rule(checked, 161002, condition));
        }
    }

    /// The op's baseline on ascend910b passes every rule, every rule gets a case, and one case's
    /// name contains `case`.
    fn assert_baseline_and_case(op: &OpIr, case: &str) {
        let rules = op.all_rules();
        let call = baseline(op, &rules, "ascend910b");
        assert_eq!(first_failure(&rules, &call), None, "{call:?}");
        let set = synthesize(op);
        assert!(set.untested.is_empty(), "{:?}", set.untested);
        assert!(
            set.cases.iter().any(|c| c.name.contains(case)),
            "no case {case}"
        );
    }

    #[test]
    fn a_dims_bound_gets_a_case_that_exceeds_it() {
        let mut op = op();
        op.params.push(Param {
            name: "index".into(),
            ..op.params[0].clone()
        });
        push_rule(
            &mut op,
            Rule::DimsAtMost {
                lhs: "index".into(),
                rhs: "self".into(),
                except_attr: None,
            },
            "对于每一个维度d，有index.size(d) <= self.size(d)",
        );
        assert_baseline_and_case(&op, "index_exceeds_self");
    }

    #[test]
    fn a_half_shape_gets_a_baseline_that_meets_it_and_cases_that_break_it() {
        let mut op = op();
        op.params.push(Param {
            name: "half".into(),
            ..op.params[0].clone()
        });
        if let Some(Mapping::Rules { rules, .. }) = &mut op.errors[0].mapping {
            rules.push(rule(
                Rule::DimsScaled {
                    lhs: "half".into(),
                    rhs: "self".into(),
                    dim: -1,
                    dim_attr: None,
                    num: 1,
                    den: 2,
                },
                161002,
                "half的最后一维不等于self最后一维的1/2",
            ));
            rules.push(rule(
                Rule::ShapeSameExcept {
                    lhs: "half".into(),
                    rhs: "self".into(),
                    dim: -1,
                    dim_attr: None,
                },
                161002,
                "half的shape跟self的shape除了最后一维外需要保持一致",
            ));
        }
        let rules = op.all_rules();
        let call = baseline(&op, &rules, "ascend910b");
        assert_eq!(first_failure(&rules, &call), None, "{call:?}");
        let set = synthesize(&op);
        assert!(set.untested.is_empty(), "{:?}", set.untested);
    }

    #[test]
    fn a_dtype_conditional_rule_is_broken_under_its_dtype() {
        let mut op = op();
        op.params.push(Param {
            name: "y".into(),
            dtypes: [("ascend910b".into(), vec![DType::Int8, DType::Int4])]
                .into_iter()
                .collect(),
            ..op.params[0].clone()
        });
        push_rule(
            &mut op,
            Rule::WhenDtype {
                param: "y".into(),
                dtypes: vec![DType::Int4],
                rule: Box::new(Rule::DimMultipleOf {
                    param: "self".into(),
                    dim: -1,
                    dim_attr: None,
                    by: 4,
                }),
            },
            "y的数据类型为INT4时，self的最后一维不能被4整除",
        );
        let set = synthesize(&op);
        let i = op
            .all_rules()
            .iter()
            .position(|r| matches!(r.rule, Rule::WhenDtype { .. }))
            .expect("the rule");
        assert!(!set.untested.contains_key(&i), "{:?}", set.untested);
        let case = set
            .cases
            .iter()
            .find(|c| c.expect.rule == Some(i))
            .expect("a case for the rule");
        assert_eq!(
            tensor_of(&case.call, "y").map(|t| t.dtype),
            Some(DType::Int4),
            "{}: {:?}",
            case.name,
            case.call
        );
    }

    /// The one case of the rule of `op` that `is_it` picks.
    fn case_of(op: &OpIr, is_it: impl Fn(&Rule) -> bool) -> Case {
        let set = synthesize(op);
        let i = op
            .all_rules()
            .iter()
            .position(|r| is_it(&r.rule))
            .expect("the rule");
        assert!(!set.untested.contains_key(&i), "{:?}", set.untested);
        set.cases
            .into_iter()
            .find(|c| c.expect.rule == Some(i))
            .expect("a case for the rule")
    }

    #[test]
    fn a_string_conditional_rule_is_broken_under_that_string() {
        let mut op = op();
        op.params
            .push(crate::fixture::attr("quantMode", "const char*", &[]));
        push_rule(
            &mut op,
            Rule::StrIn {
                param: "quantMode".into(),
                values: vec!["static".into(), "dynamic".into()],
            },
            "quantMode不在支持的范围之内",
        );
        // The baseline's quantMode is "static"; the case sets "dynamic", then breaks the rank.
        push_rule(
            &mut op,
            Rule::WhenStr {
                param: "quantMode".into(),
                values: vec!["dynamic".into()],
                negate: false,
                rule: Box::new(Rule::RankIn {
                    param: "self".into(),
                    min: 3,
                    max: 8,
                }),
            },
            "当quantMode为dynamic时，self的维度小于3",
        );
        let base = baseline(&op, &op.all_rules(), "ascend910b");
        assert_eq!(base.args["quantMode"], Arg::Str("static".into()));
        let case = case_of(&op, |r| matches!(r, Rule::WhenStr { .. }));
        assert_eq!(case.call.args["quantMode"], Arg::Str("dynamic".into()));
        assert!(tensor_of(&case.call, "self").is_some_and(|t| t.rank() < 3));
    }

    #[test]
    fn an_any_element_conditional_rule_is_broken_with_an_element_in_range() {
        let mut op = op();
        // "如果kernel中存在负数，则out的shape中不能有0".
        push_rule(
            &mut op,
            Rule::WhenAnyElem {
                param: "kernel".into(),
                min: None,
                max: Some(-1),
                rule: Box::new(Rule::DimsPositive {
                    param: "out".into(),
                    allow_zero: false,
                }),
            },
            "如果kernel中存在负数，则out的shape中不能有0",
        );
        let case = case_of(&op, |r| matches!(r, Rule::WhenAnyElem { .. }));
        let kernel = case.call.args["kernel"].as_int_list().expect("a list");
        assert!(kernel.iter().any(|k| *k < 0), "{kernel:?}");
        assert!(tensor_of(&case.call, "out").is_some_and(|t| t.shape.contains(&0)));
    }

    #[test]
    fn a_rank_conditional_rule_is_broken_at_its_rank() {
        let mut op = op();
        op.params.push(Param {
            name: "grad".into(),
            ..op.params[0].clone()
        });
        // The baseline's self has rank 2; the case gives it rank 3.
        push_rule(
            &mut op,
            Rule::WhenTensor {
                param: "self".into(),
                state: TensorState::Rank {
                    ranks: vec![3],
                    negate: false,
                },
                rule: Box::new(Rule::DimsEqual {
                    lhs: "self".into(),
                    lhs_dim: 0,
                    rhs: "grad".into(),
                    rhs_dim: 0,
                }),
            },
            "当self为3维时，self与grad的第0维不一致",
        );
        let base = baseline(&op, &op.all_rules(), "ascend910b");
        assert_eq!(tensor_of(&base, "self").map(TensorDesc::rank), Some(2));
        let case = case_of(&op, |r| matches!(r, Rule::WhenTensor { .. }));
        assert_eq!(tensor_of(&case.call, "self").map(TensorDesc::rank), Some(3));
    }

    #[test]
    fn a_joint_emptiness_is_broken_with_the_other_tensor_not_empty() {
        let mut op = op();
        op.params.push(Param {
            name: "index".into(),
            ..op.params[0].clone()
        });
        let not_empty = |p: &str| Rule::NotEmpty { param: p.into() };
        // "self是空tensor，index不是空tensor".
        push_rule(
            &mut op,
            Rule::WhenTensor {
                param: "index".into(),
                state: TensorState::NotEmpty,
                rule: Box::new(not_empty("self")),
            },
            "self是空tensor，index不是空tensor",
        );
        let case = case_of(&op, |r| matches!(r, Rule::WhenTensor { .. }));
        assert!(tensor_of(&case.call, "self").is_some_and(TensorDesc::is_empty));
        assert!(tensor_of(&case.call, "index").is_some_and(|t| !t.is_empty()));
    }

    #[test]
    fn a_null_conditional_rule_is_broken_with_the_pointer_null() {
        let mut op = op();
        op.params.push(Param {
            name: "offset".into(),
            ..op.params[0].clone()
        });
        // "当offset为空指针时，kernel的长度不为1".
        push_rule(
            &mut op,
            Rule::WhenTensor {
                param: "offset".into(),
                state: TensorState::Null,
                rule: Box::new(Rule::ListLenIn {
                    param: "kernel".into(),
                    lens: vec![1],
                }),
            },
            "当offset为空指针时，kernel的长度不为1",
        );
        let case = case_of(&op, |r| matches!(r, Rule::WhenTensor { .. }));
        assert!(case.call.args.get("offset").is_none_or(Arg::is_null));
    }

    #[test]
    fn bfloat16_crosses_products() {
        let names: Vec<String> = synthesize(&op())
            .cases
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert!(
            names.contains(&"cross_self_bfloat16_valid_on_ascend910b".to_string()),
            "{names:?}"
        );
        assert!(
            names.contains(&"cross_self_bfloat16_rejected_on_ascend910".to_string()),
            "{names:?}"
        );
    }

    #[test]
    fn synthesis_is_deterministic() {
        assert_eq!(synthesize(&op()).cases, synthesize(&op()).cases);
    }

    #[test]
    fn a_rule_no_call_can_satisfy_is_reported_untested() {
        let mut op = op();
        if let Some(Mapping::Rules { rules, .. }) = &mut op.errors[0].mapping {
            // rank must be 2..4 and also 6..8: no baseline exists.
            rules.push(rule(
                Rule::RankIn {
                    param: "self".into(),
                    min: 6,
                    max: 8,
                },
                161002,
                "impossible",
            ));
        }
        let set = synthesize(&op);
        assert!(!set.untested.is_empty());
        assert!(set.cases.iter().all(|c| !c.name.starts_with("baseline")));
    }
}
