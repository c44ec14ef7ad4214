//! C++ emission of the dtypes rules (`Family::Dtypes`), as `emit/rust/dtypes.rs`.

use super::*;

impl Emitter<'_> {
    pub(super) fn dtypes_rule(&self, rule: &Rule) -> String {
        match rule {
            Rule::DtypeIn { param, allowed } => {
                let allowed = self.product_list(allowed);
                if self.is_scalar(param) {
                    return format!(
                        "pred::scalar_dtype_in({}, {}, {allowed}, product)",
                        literal(param),
                        self.arg(param)
                    );
                }
                let ts = self.tensors(&[param]);
                self.tensor_rule(
                    &[param],
                    format!("pred::dtype_in({ts}, {allowed}, product)"),
                )
            }
            Rule::DtypeSame { params } => self.tensors_pred(params, "dtype_same"),
            Rule::DtypeIsArg { param, arg } => {
                let ts = self.tensors(&[param]);
                let a = self.arg(arg);
                self.tensor_rule(
                    &[param],
                    format!("pred::dtype_is_arg({ts}, {}, {a})", literal(arg)),
                )
            }
            Rule::DtypePromotable { params } => match self.scalars(params) {
                None => self.tensors_pred(params, "dtype_promotable"),
                Some((names, ss)) => {
                    let ts = self.tensors(&names);
                    self.tensor_rule(&names, format!("pred::dtype_promotable_with({ts}, {ss})"))
                }
            },
            Rule::DtypeCastable { from, to } => {
                let t = self.tensors(&[to]);
                match self.scalars(from) {
                    None => {
                        let names: Vec<&String> = from.iter().chain(std::iter::once(to)).collect();
                        let f = self.tensors(&from.iter().collect::<Vec<_>>());
                        self.tensor_rule(&names, format!("pred::dtype_castable({f}, {t})"))
                    }
                    Some((mut names, ss)) => {
                        let f = self.tensors(&names);
                        names.push(to);
                        let body = format!("pred::dtype_castable_with({f}, {ss}, {t})");
                        self.tensor_rule(&names, body)
                    }
                }
            }
            Rule::ScalarCastable { scalars, to, dtype } => {
                let mut tensors: Vec<&String> = to.iter().collect();
                let target = match dtype.as_ref().and_then(dtype_cpp) {
                    Some(d) => format!("std::optional<op::DataType>({d})"),
                    None if dtype.is_some() => "std::optional<op::DataType>()".to_string(),
                    None => match self.scalars(to) {
                        None => format!("pred::promoted_dtype({})", self.tensors(&tensors)),
                        Some((others, ss)) => {
                            tensors = others;
                            format!(
                                "pred::promoted_dtype_with({}, {ss})",
                                self.tensors(&tensors)
                            )
                        }
                    },
                };
                let checks: Vec<String> = scalars
                    .iter()
                    .map(|s| {
                        format!(
                            "pred::scalar_castable({}, {}, target)",
                            literal(s),
                            self.arg(s)
                        )
                    })
                    .collect();
                let body = scoped(&format!(
                    "const std::optional<op::DataType> target = {target}; return {};",
                    first_error(&checks)
                ));
                self.tensor_rule(&tensors, body)
            }
            other => wrong_family(other),
        }
    }

    /// The operands of a promotion that are `aclScalar` parameters, as a `pred::Scalars`
    /// expression, with the others (tensors); `None` when there is none, so a tensor-only rule
    /// keeps its tensor-only predicate.
    fn scalars<'a>(&self, params: &'a [String]) -> Option<(Vec<&'a String>, String)> {
        let (scalars, others): (Vec<&String>, Vec<&String>) =
            params.iter().partition(|p| self.is_scalar(p));
        if scalars.is_empty() {
            return None;
        }
        let pairs: Vec<String> = scalars
            .iter()
            .map(|s| format!("{{{}, {}}}", literal(s), self.arg(s)))
            .collect();
        Some((others, format!("pred::scalars({{{}}})", pairs.join(", "))))
    }

    /// The product's dtype list as a `const std::vector<op::DataType>*` expression: a lookup in a
    /// per-product table constant (nullptr where the doc gives no list for the product).
    fn product_list(&self, allowed: &BTreeMap<String, Vec<DType>>) -> String {
        format!("pred::dtypes_on({}, product)", self.product_table(allowed))
    }

    /// The per-product table constant of a rule's dtype lists; products with one list share its
    /// constant (as do rules with one list).
    pub(super) fn product_table(&self, allowed: &BTreeMap<String, Vec<DType>>) -> String {
        let entries: Vec<String> = allowed
            .iter()
            .map(|(product, list)| {
                let name = self.constant("std::vector<op::DataType>", dtype_list(list));
                format!("{{{}, &{name}}}", literal(product))
            })
            .collect();
        self.constant(
            "pred::DtypesByProduct",
            format!("{{{}}}", entries.join(", ")),
        )
    }
}
