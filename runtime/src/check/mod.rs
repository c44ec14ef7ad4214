//! The rule interpreter: evaluates the rules of any IR against a call, in aclnn's order.
//!
//! Argument conventions (the generated validators follow the same ones):
//! - An argument that is absent from `Call::args` is treated exactly like `null`: a null
//!   pointer for pointer parameters. `NotNull` rejects it; every other rule skips a null or
//!   absent argument, since optional parameters may be null and nullness is `NotNull`'s job.
//! - Value parameters (bool, integers, floats) cannot be null in C; when absent they are not
//!   checked.
//! - An argument of the wrong kind for a rule (a tensor where an integer list is expected)
//!   fails that rule with 161002-style rejection by the rule's own code.

mod conditions;
mod dims;
mod dtypes;
mod formats;
mod nulls;
mod products;
mod shapes;
mod values;

use crate::pred::{self, Named};
use crate::{AclnnError, Arg, Call, CheckedRule, Factor, Family, Rule};

/// Checks `call` against `rules` in stage order (stable within a stage) and returns the first failure.
pub fn check(rules: &[CheckedRule], call: &Call) -> Result<(), AclnnError> {
    let mut ordered: Vec<&CheckedRule> = rules.iter().collect();
    ordered.sort_by_key(|r| r.rule.stage());
    for checked in ordered {
        pred::report(checked.code, &checked.condition, eval(&checked.rule, call))?;
    }
    Ok(())
}

/// The dim a rule names: `dim`, or the value of the integer attribute `dim_attr` (`None` when
/// that argument is absent).
fn dim_of(call: &Call, dim: i64, dim_attr: Option<&str>) -> Result<Option<i64>, String> {
    match dim_attr {
        None => Ok(Some(dim)),
        Some(a) => pred::arg_int(a, arg(call, a)),
    }
}

/// Evaluates one rule; `Err` carries what in this call broke it.
pub fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule.family() {
        Family::Products => products::eval(rule, call),
        Family::Nulls => nulls::eval(rule, call),
        Family::Dtypes => dtypes::eval(rule, call),
        Family::Formats => formats::eval(rule, call),
        Family::Shapes => shapes::eval(rule, call),
        Family::Dims => dims::eval(rule, call),
        Family::Values => values::eval(rule, call),
        Family::Conditions => conditions::eval(rule, call),
    }
}

/// What a family module returns for a rule of another family (the dispatch never sends one).
fn wrong_family(rule: &Rule) -> String {
    format!(
        "internal: a {} rule evaluated as another family",
        rule.family().name()
    )
}

/// The argument named `name`, or `None` when it is absent or a null pointer.
fn arg<'a>(call: &'a Call, name: &str) -> Option<&'a Arg> {
    call.args.get(name).filter(|a| !a.is_null())
}

/// The tensors of a tensor or tensor-list argument, labelled for messages; empty when null.
fn tensors<'a>(call: &'a Call, name: &str) -> Result<Vec<Named<'a>>, String> {
    match arg(call, name) {
        None => Ok(Vec::new()),
        Some(Arg::Tensor(t)) => Ok(pred::one(name, Some(t))),
        Some(Arg::TensorList(ts)) => Ok(pred::list(name, Some(ts))),
        Some(_) => pred::not_a_tensor(name).map(|()| Vec::new()),
    }
}

/// The values of `ProductsEqual` factors on `call`.
fn factors(call: &Call, fs: &[Factor]) -> Vec<pred::FactorValue> {
    fs.iter()
        .map(|f| match f {
            Factor::Attr(p) => pred::arg_int(p, arg(call, p)),
            Factor::Dim { param, dim } => {
                tensors(call, param).map(|ts| pred::factor_dim(&ts, *dim))
            }
            Factor::DimsFrom { param, from } => {
                tensors(call, param).map(|ts| pred::factor_dims_from(&ts, *from))
            }
            Factor::Numel(p) => tensors(call, p).map(|ts| pred::factor_numel(&ts)),
        })
        .collect()
}

fn tensors_of_all<'a>(call: &'a Call, names: &[String]) -> Result<Vec<Named<'a>>, String> {
    let mut all = Vec::new();
    for name in names {
        all.extend(tensors(call, name)?);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{status, DType, Format, TensorDesc};
    use std::collections::BTreeMap;

    fn rule(rule: Rule, code: u32, condition: &str) -> CheckedRule {
        CheckedRule {
            rule,
            code,
            condition: condition.to_string(),
            inferred: false,
        }
    }

    fn t(shape: &[i64], dtype: DType) -> Arg {
        Arg::Tensor(TensorDesc::new(shape, dtype, Format::Nd))
    }

    fn call(product: &str, args: &[(&str, Arg)]) -> Call {
        Call {
            product: product.to_string(),
            args: args
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn pool_rules() -> Vec<CheckedRule> {
        let allowed: BTreeMap<String, Vec<DType>> = [
            (
                "ascend910".to_string(),
                vec![DType::Float32, DType::Float16],
            ),
            (
                "ascend910b".to_string(),
                vec![DType::Float32, DType::Float16, DType::BFloat16],
            ),
        ]
        .into_iter()
        .collect();
        vec![
            // Deliberately out of stage order: the interpreter sorts.
            rule(
                Rule::RankIn {
                    param: "self".into(),
                    min: 4,
                    max: 5,
                },
                161002,
                "维数不等于4或5",
            ),
            rule(
                Rule::DtypeIn {
                    param: "self".into(),
                    allowed,
                },
                161002,
                "数据类型不在支持的范围之内",
            ),
            rule(
                Rule::NotNull {
                    params: names(&["self", "out"]),
                },
                161001,
                "传入的self或out是空指针",
            ),
            rule(
                Rule::ProductSupported {
                    products: names(&["ascend910", "ascend910b"]),
                },
                161002,
                "产品不支持",
            ),
        ]
    }

    #[test]
    fn scalars_named_by_a_promotion_join_it() {
        let rules = vec![
            rule(
                Rule::DtypePromotable {
                    params: names(&["self", "threshold"]),
                },
                161002,
                "self和threshold不满足数据类型推导规则",
            ),
            rule(
                Rule::DtypeCastable {
                    from: names(&["self", "threshold"]),
                    to: "out".into(),
                },
                161002,
                "self与threshold推导后的数据类型无法转换为指定输出out的类型",
            ),
        ];
        let scalar = |dtype| Arg::Scalar { dtype, value: 1.5 };
        let with = |threshold: Arg, out| {
            call(
                "ascend910b",
                &[
                    ("self", t(&[2], DType::Int32)),
                    ("threshold", threshold),
                    ("out", t(&[2], out)),
                ],
            )
        };
        let err = check(&rules, &with(scalar(DType::Float32), DType::Int32)).unwrap_err();
        assert!(err.condition.contains("无法转换"), "{err:?}");
        assert_eq!(
            check(&rules, &with(scalar(DType::Float32), DType::Float16)),
            Ok(())
        );
        assert_eq!(
            check(&rules, &with(scalar(DType::Int64), DType::Int32)),
            Ok(())
        );
        assert_eq!(check(&rules, &with(Arg::Null, DType::Int32)), Ok(()));
        // A tensor where the doc has a scalar still takes part as a tensor.
        assert!(check(&rules, &with(t(&[2], DType::Float32), DType::Int32)).is_err());
    }

    #[test]
    fn valid_call_passes() {
        let c = call(
            "ascend910b",
            &[
                ("self", t(&[1, 2, 3, 4], DType::BFloat16)),
                ("out", t(&[1], DType::Float32)),
            ],
        );
        assert_eq!(check(&pool_rules(), &c), Ok(()));
    }

    #[test]
    fn absent_pointer_is_null_and_null_comes_before_dtype() {
        let c = call("ascend910b", &[("self", t(&[1, 2, 3], DType::Int8))]);
        let err = check(&pool_rules(), &c).unwrap_err();
        assert_eq!(err.code, status::PARAM_NULLPTR);
        assert_eq!(err.condition, "传入的self或out是空指针");
        assert!(err.message.contains("out"), "{}", err.message);
    }

    #[test]
    fn dtype_list_depends_on_product() {
        let args = [
            ("self", t(&[1, 2, 3, 4], DType::BFloat16)),
            ("out", Arg::Null),
        ];
        let mut rules = pool_rules();
        rules.retain(|r| !matches!(r.rule, Rule::NotNull { .. }));
        assert!(check(&rules, &call("ascend910b", &args)).is_ok());
        let err = check(&rules, &call("ascend910", &args)).unwrap_err();
        assert_eq!(err.code, status::PARAM_INVALID);
        assert!(err.message.contains("BFLOAT16"), "{}", err.message);
    }

    #[test]
    fn unsupported_product_is_rejected_first() {
        let c = call("ascend310p", &[]);
        let err = check(&pool_rules(), &c).unwrap_err();
        assert_eq!(err.code, status::PARAM_INVALID);
        assert!(err.message.contains("ascend310p"), "{}", err.message);
    }

    #[test]
    fn rank_rule_rejects_three_dims() {
        let c = call(
            "ascend910b",
            &[
                ("self", t(&[1, 2, 3], DType::Float32)),
                ("out", t(&[1], DType::Float32)),
            ],
        );
        let err = check(&pool_rules(), &c).unwrap_err();
        assert_eq!(err.condition, "维数不等于4或5");
    }

    #[test]
    fn on_products_applies_only_there() {
        let r = vec![rule(
            Rule::OnProducts {
                products: names(&["ascend910"]),
                rule: Box::new(Rule::IntInRange {
                    param: "divisorOverride".into(),
                    min: Some(-255),
                    max: Some(255),
                }),
            },
            161002,
            "divisorOverride不在支持范围内",
        )];
        let args = [("divisorOverride", Arg::Int(300))];
        assert!(check(&r, &call("ascend910b", &args)).is_ok());
        assert!(check(&r, &call("ascend910", &args)).is_err());
    }

    #[test]
    fn attribute_relations_and_lists() {
        let r = vec![
            rule(
                Rule::ListLenIn {
                    param: "kernelSize".into(),
                    lens: vec![1, 2],
                },
                161002,
                "长度",
            ),
            rule(
                Rule::ListElemsAtMostFraction {
                    lhs: "padding".into(),
                    rhs: "kernelSize".into(),
                    num: 2,
                    den: 1,
                },
                161002,
                "padding超过kernelSize对应位置的1/2",
            ),
        ];
        let ok = call(
            "x",
            &[
                ("kernelSize", Arg::IntArray(vec![4, 2])),
                ("padding", Arg::IntArray(vec![1])),
            ],
        );
        assert!(check(&r, &ok).is_ok());
        let bad = call(
            "x",
            &[
                ("kernelSize", Arg::IntArray(vec![4, 2])),
                ("padding", Arg::IntArray(vec![2, 2])),
            ],
        );
        assert_eq!(
            check(&r, &bad).unwrap_err().condition,
            "padding超过kernelSize对应位置的1/2"
        );
        let long = call("x", &[("kernelSize", Arg::IntArray(vec![1, 2, 3]))]);
        assert_eq!(check(&r, &long).unwrap_err().condition, "长度");
    }

    #[test]
    fn dim_multiple_of_reads_the_dim_from_an_attribute() {
        let r = vec![rule(
            Rule::DimMultipleOf {
                param: "self".into(),
                dim: 0,
                dim_attr: Some("dim".into()),
                by: 2,
            },
            161002,
            "入参self根据指定的dim所对应的维度不能整除2",
        )];
        let x = t(&[3, 4], DType::Float32);
        let at = |d: i64| call("x", &[("self", x.clone()), ("dim", Arg::Int(d))]);
        assert!(check(&r, &at(-1)).is_ok());
        assert!(check(&r, &at(1)).is_ok());
        assert!(check(&r, &at(0)).is_err());
        assert!(check(&r, &call("x", &[("self", x.clone())])).is_ok());
    }

    #[test]
    fn value_not_excludes_one_number_of_any_kind() {
        let r = vec![rule(
            Rule::ValueNot {
                param: "alpha".into(),
                value: 0,
            },
            161002,
            "alpha等于0",
        )];
        let with = |a: Arg| call("x", &[("alpha", a)]);
        assert!(check(&r, &with(Arg::Float(0.5))).is_ok());
        assert!(check(&r, &with(Arg::Float(0.0))).is_err());
        assert!(check(&r, &with(Arg::Int(0))).is_err());
        assert!(check(&r, &with(Arg::Int(-1))).is_ok());
        assert!(check(&r, &call("x", &[])).is_ok());
    }

    #[test]
    fn dim_in_range_bounds_one_dim_and_skips_tensors_without_it() {
        let r = vec![rule(
            Rule::DimInRange {
                param: "x".into(),
                dim: -1,
                min: Some(1),
                max: Some(4096),
            },
            161002,
            "x的最后一维大于4096或者等于0",
        )];
        let with = |shape: &[i64]| call("x", &[("x", t(shape, DType::Float32))]);
        assert!(check(&r, &with(&[3, 4096])).is_ok());
        assert!(check(&r, &with(&[3, 4097])).is_err());
        assert!(check(&r, &with(&[3, 0])).is_err());
        assert!(check(&r, &with(&[])).is_ok());
    }

    #[test]
    fn when_dtype_applies_the_rule_only_under_that_dtype() {
        let r = vec![rule(
            Rule::WhenDtype {
                param: "y".into(),
                dtypes: vec![DType::Int4],
                rule: Box::new(Rule::DimMultipleOf {
                    param: "x".into(),
                    dim: -1,
                    dim_attr: None,
                    by: 2,
                }),
            },
            161002,
            "y的数据类型为INT4时，x的shape尾轴大小不是偶数",
        )];
        let x = t(&[3, 5], DType::Float32);
        let with = |d: DType| call("x", &[("x", x.clone()), ("y", t(&[3, 5], d))]);
        assert!(check(&r, &with(DType::Int8)).is_ok());
        assert!(check(&r, &with(DType::Int4)).is_err());
        assert!(check(&r, &call("x", &[("x", x.clone())])).is_ok());
    }

    #[test]
    fn when_str_applies_the_rule_only_under_those_strings() {
        // "当quantMode为static时，scale是空指针".
        let r = vec![rule(
            Rule::WhenStr {
                param: "quantMode".into(),
                values: vec!["static".into()],
                negate: false,
                rule: Box::new(Rule::NotNull {
                    params: vec!["scale".into()],
                }),
            },
            161001,
            "当quantMode为static时，scale是空指针",
        )];
        let with = |mode: Arg| {
            let mut c = call("x", &[]);
            c.args.insert("quantMode".into(), mode);
            c
        };
        assert!(check(&r, &with(Arg::Str("static".into()))).is_err());
        assert!(check(&r, &with(Arg::Str("dynamic".into()))).is_ok());
        // Compared exactly as the doc writes it; a null string meets no condition.
        assert!(check(&r, &with(Arg::Str("Static".into()))).is_ok());
        assert!(check(&r, &with(Arg::Null)).is_ok());
        let mut negated = r.clone();
        if let Rule::WhenStr { negate, .. } = &mut negated[0].rule {
            *negate = true;
        }
        assert!(check(&negated, &with(Arg::Str("dynamic".into()))).is_err());
        assert!(check(&negated, &with(Arg::Null)).is_ok());
    }

    #[test]
    fn when_any_elem_applies_the_rule_only_when_an_element_is_in_range() {
        // "如果pad中存在正数，则out的shape中不能有0".
        let r = vec![rule(
            Rule::WhenAnyElem {
                param: "pad".into(),
                min: Some(1),
                max: None,
                rule: Box::new(Rule::DimsPositive {
                    param: "out".into(),
                    allow_zero: false,
                }),
            },
            161002,
            "如果pad中存在正数，则out的shape中不能有0",
        )];
        let with = |pad: Arg| {
            let mut c = call("x", &[("out", t(&[2, 0], DType::Float32))]);
            c.args.insert("pad".into(), pad);
            c
        };
        assert!(check(&r, &with(Arg::IntArray(vec![0, -1, 2]))).is_err());
        assert!(check(&r, &with(Arg::IntArray(vec![0, -1, 0]))).is_ok());
        assert!(check(&r, &with(Arg::IntArray(vec![]))).is_ok());
        assert!(check(&r, &with(Arg::Null)).is_ok());
    }

    #[test]
    fn when_tensor_applies_the_rule_only_in_that_state() {
        use crate::TensorState;
        // "当self为3维时，self与gradOutput在C维度上的size不一致".
        let r = vec![rule(
            Rule::WhenTensor {
                param: "self".into(),
                state: TensorState::Rank {
                    ranks: vec![3],
                    negate: false,
                },
                rule: Box::new(Rule::DimsEqual {
                    lhs: "self".into(),
                    lhs_dim: 0,
                    rhs: "gradOutput".into(),
                    rhs_dim: 0,
                }),
            },
            161002,
            "当self为3维时，self与gradOutput在C维度上的size不一致",
        )];
        let with = |s: &[i64], g: &[i64]| {
            let (s, g) = (t(s, DType::Float32), t(g, DType::Float32));
            call("x", &[("self", s), ("gradOutput", g)])
        };
        assert!(check(&r, &with(&[2, 3, 3], &[2, 5, 5])).is_ok());
        assert!(check(&r, &with(&[2, 3, 3], &[4, 5, 5])).is_err());
        // Another rank, or a null self: not this rule's concern.
        assert!(check(&r, &with(&[1, 2, 3, 3], &[4, 5, 5])).is_ok());
        let g = t(&[4, 5, 5], DType::Float32);
        assert!(check(&r, &call("x", &[("gradOutput", g)])).is_ok());
    }

    #[test]
    fn a_joint_emptiness_rejects_only_both_states_together() {
        use crate::TensorState;
        // "selfRef是空tensor，index不是空tensor".
        let r = vec![rule(
            Rule::WhenTensor {
                param: "index".into(),
                state: TensorState::NotEmpty,
                rule: Box::new(Rule::NotEmpty {
                    param: "selfRef".into(),
                }),
            },
            161002,
            "selfRef是空tensor，index不是空tensor",
        )];
        let with = |s: &[i64], i: &[i64]| {
            let (s, i) = (t(s, DType::Float32), t(i, DType::Int64));
            call("x", &[("selfRef", s), ("index", i)])
        };
        assert!(check(&r, &with(&[0, 2], &[3])).is_err());
        assert!(check(&r, &with(&[0, 2], &[0])).is_ok());
        assert!(check(&r, &with(&[2, 2], &[3])).is_ok());
        assert!(check(&r, &with(&[2, 2], &[0])).is_ok());
        // A null index is in no shape state.
        let s = t(&[0, 2], DType::Float32);
        assert!(check(&r, &call("x", &[("selfRef", s)])).is_ok());
    }

    #[test]
    fn when_tensor_states_of_null_present_and_lists() {
        use crate::TensorState::*;
        let held = |a: Option<Arg>, s: crate::TensorState| pred::when_tensor(a.as_ref(), &s);
        let rank = |ranks: &[usize], negate| Rank {
            ranks: ranks.to_vec(),
            negate,
        };
        assert!(held(None, Null) && held(Some(Arg::Null), Null));
        assert!(!held(None, Present) && !held(None, Empty) && !held(None, NotEmpty));
        assert!(!held(None, rank(&[0], true)));
        let x = Some(t(&[2, 0], DType::Float32));
        assert!(held(x.clone(), Present) && held(x.clone(), Empty) && !held(x.clone(), NotEmpty));
        assert!(held(x.clone(), rank(&[2], false)) && !held(x, rank(&[2], true)));
        let scalar = Some(t(&[], DType::Float32));
        assert!(held(scalar.clone(), rank(&[0], false)) && held(scalar, NotEmpty));
        // An array is present but no tensor.
        let array = Some(Arg::IntArray(vec![1]));
        assert!(held(array.clone(), Present) && !held(array, NotEmpty));
        // A list: empty when one tensor is, of a rank when every one is.
        let list = |shapes: &[&[i64]]| {
            Some(Arg::TensorList(
                shapes
                    .iter()
                    .map(|s| TensorDesc::new(s, DType::Float32, Format::Nd))
                    .collect(),
            ))
        };
        assert!(held(list(&[&[2], &[0]]), Empty) && !held(list(&[&[2], &[0]]), NotEmpty));
        assert!(held(list(&[&[2], &[3]]), rank(&[1], false)));
        assert!(!held(list(&[&[2], &[3, 3]]), rank(&[1], false)));
        assert!(!held(list(&[]), NotEmpty) && !held(list(&[]), Empty));
    }

    #[test]
    fn a_scalar_dtype_stated_against_a_tensor_dtype() {
        let r = vec![rule(
            Rule::WhenDtype {
                param: "x".into(),
                dtypes: vec![DType::Float16],
                rule: Box::new(Rule::DtypeIn {
                    param: "scalar".into(),
                    allowed: [(
                        "ascend910b".to_string(),
                        vec![DType::Float16, DType::Float64],
                    )]
                    .into_iter()
                    .collect(),
                }),
            },
            161002,
            "当x的数据类型为FLOAT16时，数据类型支持FLOAT16、DOUBLE",
        )];
        let with = |x: DType, s: DType| {
            let scalar = Arg::Scalar {
                dtype: s,
                value: 1.0,
            };
            call("ascend910b", &[("x", t(&[2], x)), ("scalar", scalar)])
        };
        assert!(check(&r, &with(DType::Float16, DType::Float64)).is_ok());
        let e = check(&r, &with(DType::Float16, DType::Int32)).unwrap_err();
        assert!(
            e.message.contains("scalar has dtype INT32"),
            "{}",
            e.message
        );
        // Another dtype of x, another product or a null scalar: not this rule's concern.
        assert!(check(&r, &with(DType::Int32, DType::Int32)).is_ok());
        let mut other = with(DType::Float16, DType::Int32);
        other.product = "ascend910".into();
        assert!(check(&r, &other).is_ok());
        let null = call(
            "ascend910b",
            &[("x", t(&[2], DType::Float16)), ("scalar", Arg::Null)],
        );
        assert!(check(&r, &null).is_ok());
    }

    #[test]
    fn a_tensor_dtype_named_by_an_acl_data_type_argument() {
        let r = vec![rule(
            Rule::DtypeIsArg {
                param: "out".into(),
                arg: "dtype".into(),
            },
            161002,
            "参数dtype和out的数据类型不一致",
        )];
        let with =
            |out: DType, dtype: Arg| call("ascend910b", &[("out", t(&[2], out)), ("dtype", dtype)]);
        assert!(check(&r, &with(DType::Int32, Arg::DataType(DType::Int32))).is_ok());
        let e = check(&r, &with(DType::Float32, Arg::DataType(DType::Int32))).unwrap_err();
        assert_eq!(e.message, "out has dtype FLOAT32 but dtype is INT32");
        assert!(check(&r, &with(DType::Float32, Arg::Int(3))).is_err());
        assert!(check(&r, &call("ascend910b", &[("out", t(&[2], DType::Int8))])).is_ok());
    }

    #[test]
    fn wrong_kind_fails_the_rule() {
        let r = vec![rule(
            Rule::IntIn {
                param: "cubeMathType".into(),
                values: vec![0, 1, 2, 3],
            },
            161002,
            "cubeMathType不在支持范围内",
        )];
        // A list attribute is checked element by element; a tensor is the wrong kind.
        let c = call("x", &[("cubeMathType", Arg::IntArray(vec![1, 3]))]);
        assert!(check(&r, &c).is_ok());
        let c = call("x", &[("cubeMathType", Arg::IntArray(vec![1, 5]))]);
        assert!(check(&r, &c).is_err());
        let c = call(
            "x",
            &[(
                "cubeMathType",
                Arg::Tensor(TensorDesc::new(&[1], DType::Int32, Format::Nd)),
            )],
        );
        assert!(check(&r, &c)
            .unwrap_err()
            .message
            .contains("not an integer"));
        let lambda = vec![rule(
            Rule::IntInRange {
                param: "lambda".into(),
                min: Some(0),
                max: None,
            },
            161002,
            "lambda小于0",
        )];
        assert!(check(&lambda, &call("x", &[("lambda", Arg::Float(0.5))])).is_ok());
        assert!(check(&lambda, &call("x", &[("lambda", Arg::Float(-0.5))])).is_err());
        let c = call("x", &[("cubeMathType", Arg::Int(4))]);
        assert!(check(&r, &c).is_err());
        let c = call("x", &[("cubeMathType", Arg::Int(3))]);
        assert!(check(&r, &c).is_ok());
    }

    #[test]
    fn a_string_attribute_is_one_of_its_values() {
        let r = vec![rule(
            Rule::StrIn {
                param: "roundMode".into(),
                values: names(&["round", "floor"]),
            },
            161002,
            "roundMode不在有效取值范围",
        )];
        let with = |a: Arg| call("x", &[("roundMode", a)]);
        assert!(check(&r, &with(Arg::Str("round".into()))).is_ok());
        let e = check(&r, &with(Arg::Str("Round".into()))).unwrap_err();
        assert_eq!(e.code, 161002);
        assert_eq!(
            e.message,
            r#"roundMode is "Round" (supported: "round", "floor")"#
        );
        // A null string is NotNull's concern; an absent one is not checked.
        assert!(check(&r, &with(Arg::Null)).is_ok());
        assert!(check(&r, &call("x", &[])).is_ok());
        assert!(check(&r, &with(Arg::Int(1)))
            .unwrap_err()
            .message
            .contains("not a string"));
        assert_eq!(r[0].rule.stage(), crate::rule::Stage::Attribute);
    }

    #[test]
    fn products_of_sizes_and_attributes_are_compared_and_unknown_factors_skip() {
        let r = vec![
            rule(
                Rule::ProductsEqual {
                    lhs: vec![Factor::Numel("self".into())],
                    rhs: vec![
                        Factor::Attr("N".into()),
                        Factor::Dim {
                            param: "self".into(),
                            dim: 1,
                        },
                        Factor::DimsFrom {
                            param: "self".into(),
                            from: 2,
                        },
                    ],
                },
                161002,
                "self的元素数量不等于N*C*HxW",
            ),
            rule(
                Rule::AttrMultipleOf {
                    param: "C".into(),
                    by: "group".into(),
                },
                161002,
                "C不能被group整除",
            ),
        ];
        let with = |n: i64, c: i64, group: i64| {
            call(
                "ascend910b",
                &[
                    ("self", t(&[2, 3, 4, 5], DType::Float32)),
                    ("N", Arg::Int(n)),
                    ("C", Arg::Int(c)),
                    ("group", Arg::Int(group)),
                ],
            )
        };
        assert_eq!(check(&r, &with(2, 6, 3)), Ok(()));
        let e = check(&r, &with(3, 6, 3)).unwrap_err();
        assert_eq!(
            e.message,
            "numel(self) is 120 but N*self.dim(1)*self.dims(2..) is 180"
        );
        let e = check(&r, &with(2, 6, 4)).unwrap_err();
        assert_eq!(e.message, "C = 6 is not a multiple of group = 4");
        // No N: the product is unknown, so not checked; a group of 0 is not checked either.
        let mut c = with(2, 6, 0);
        c.args.remove("N");
        assert_eq!(check(&r, &c), Ok(()));
        // A tensor factor naming an integer is an argument of the wrong kind.
        c.args.insert("self".into(), Arg::Int(1));
        assert!(check(&r, &c).unwrap_err().message.contains("self"));
    }
}
