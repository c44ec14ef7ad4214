//! CANN's check macros (`aclnn_kernels/common/op_error_check.h`) where one says exactly what a
//! rule says: the same calls accepted, the same status returned. The macro dereferences its
//! tensors, so only tensors `CheckNotNull` already rejected when null qualify; it logs CANN's own
//! message (the doc's condition stays in the comment above the check).
//!
//! | rule | macro |
//! | --- | --- |
//! | `NotNull` (status `ACLNN_ERR_PARAM_NULLPTR`) | `OP_CHECK_NULL` (also pointers to scalars and arrays) |
//! | `DtypeIn` of a tensor | `OP_CHECK_DTYPE_NOT_SUPPORT` with the product's list |
//! | `DtypeSame` of tensors | `OP_CHECK_DTYPE_NOT_SAME` with the first, for each other |
//! | `ShapeSame` of tensors | `OP_CHECK_SHAPE_NOT_EQUAL` with the first, for each other |
//! | `RankIn` | `OP_CHECK_WRONG_DIMENSION` (one rank), else `OP_CHECK_MIN_DIM` / `OP_CHECK_MAX_DIM` |
//! | `BroadcastTogether` of tensors | `OP_CHECK_BROADCAST` for each pair |
//! | `BroadcastShape` of two tensors and an output | `OP_CHECK_BROADCAST_AND_INFER_SHAPE`, then `OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE` |
//!
//! The rest stays `pred::`, for one of these reasons: a tensor list (the macros take one
//! tensor), an `aclScalar` or attribute (the macros take tensors), a tensor the doc lets be null
//! (the macros would dereference it), or no macro says the check (promotion, casts, formats,
//! dims, values, `ProductSupported`'s per-product message).

use super::*;

impl Emitter<'_> {
    /// The statements of `rule`'s check as CANN's macros returning `code`; `None` where no macro
    /// says exactly the same.
    pub(super) fn macro_check(&self, rule: &Rule, status: u32, code: &str) -> Option<Vec<String>> {
        let ret = format!("return {code}");
        let id = |p: &String| cpp_ident(p);
        let all_checked =
            |ps: &[String]| ps.len() >= 2 && ps.iter().all(|p| self.checked_tensor(p));
        Some(match rule {
            Rule::NotNull { params }
                if status == status::PARAM_NULLPTR
                    && params.iter().all(|p| self.op_check_null_takes(p)) =>
            {
                params
                    .iter()
                    .map(|p| format!("OP_CHECK_NULL({}, {ret});", id(p)))
                    .collect()
            }
            Rule::DtypeIn { param, allowed }
                if self.checked_tensor(param) && !allowed.is_empty() =>
            {
                self.dtype_in_macro(param, allowed, &ret)
            }
            Rule::DtypeSame { params } if all_checked(params) => params[1..]
                .iter()
                .map(|p| {
                    format!(
                        "OP_CHECK_DTYPE_NOT_SAME({}, {}, {ret});",
                        id(&params[0]),
                        id(p)
                    )
                })
                .collect(),
            Rule::ShapeSame { params } if all_checked(params) => params[1..]
                .iter()
                .map(|p| {
                    format!(
                        "OP_CHECK_SHAPE_NOT_EQUAL({}, {}, {ret});",
                        id(&params[0]),
                        id(p)
                    )
                })
                .collect(),
            Rule::RankIn { param, min, max } if self.checked_tensor(param) => {
                let t = id(param);
                if min == max {
                    vec![format!("OP_CHECK_WRONG_DIMENSION({t}, {min}, {ret});")]
                } else {
                    let mut out = Vec::new();
                    if *min > 0 {
                        out.push(format!("OP_CHECK_MIN_DIM({t}, {min}, {ret});"));
                    }
                    if *max < usize::MAX {
                        out.push(format!("OP_CHECK_MAX_DIM({t}, {max}, {ret});"));
                    }
                    out
                }
            }
            Rule::BroadcastTogether { params } if all_checked(params) => {
                let mut out = Vec::new();
                for (i, a) in params.iter().enumerate() {
                    for b in &params[i + 1..] {
                        out.push(format!("OP_CHECK_BROADCAST({}, {}, {ret});", id(a), id(b)));
                    }
                }
                out
            }
            Rule::BroadcastShape { params, out }
                if params.len() == 2 && all_checked(params) && self.checked_tensor(out) =>
            {
                let shape = self.local("broadcastShape");
                vec![
                    format!("op::Shape {shape};"),
                    format!(
                        "OP_CHECK_BROADCAST_AND_INFER_SHAPE({}, {}, {shape}, {ret});",
                        id(&params[0]),
                        id(&params[1])
                    ),
                    format!(
                        "OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE({}, {shape}, {ret});",
                        id(out)
                    ),
                ]
            }
            _ => return None,
        })
    }

    /// `OP_CHECK_DTYPE_NOT_SUPPORT` with the one list every product the later checks see has
    /// (the products `CheckProduct` admits all have it); else with the list the product has,
    /// where the doc gives it one (a product without a list is not checked, as in Rust).
    fn dtype_in_macro(
        &self,
        param: &str,
        allowed: &BTreeMap<String, Vec<DType>>,
        ret: &str,
    ) -> Vec<String> {
        let t = cpp_ident(param);
        let lists: BTreeSet<&Vec<DType>> = allowed.values().collect();
        let covered = self
            .supported
            .as_ref()
            .is_some_and(|s| !s.is_empty() && s.iter().all(|p| allowed.contains_key(p)));
        if let (true, [list]) = (covered, lists.into_iter().collect::<Vec<_>>().as_slice()) {
            let name = self.constant("std::vector<op::DataType>", dtype_list(list));
            return vec![format!("OP_CHECK_DTYPE_NOT_SUPPORT({t}, {name}, {ret});")];
        }
        let table = self.product_table(allowed);
        let local = format!("{t}Dtypes");
        vec![
            format!("if (const auto* {local} = pred::dtypes_on({table}, product)) {{"),
            format!("    OP_CHECK_DTYPE_NOT_SUPPORT({t}, *{local}, {ret});"),
            "}".to_string(),
        ]
    }
}
