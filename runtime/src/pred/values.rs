//! Predicates on values: list lengths and elements, integer and string attributes, axes, factors.

use super::*;

pub fn list_len_in(name: &str, len: usize, lens: &[usize]) -> Result<(), String> {
    if lens.contains(&len) {
        Ok(())
    } else {
        Err(format!(
            "{name} has length {len} (supported: {})",
            join(lens)
        ))
    }
}

fn range_text(min: Option<i64>, max: Option<i64>) -> String {
    let lo = min.map_or("-inf".to_string(), |v| v.to_string());
    let hi = max.map_or("inf".to_string(), |v| v.to_string());
    format!("[{lo}, {hi}]")
}

fn in_range(v: i64, min: Option<i64>, max: Option<i64>) -> bool {
    !matches!(min, Some(m) if v < m) && !matches!(max, Some(m) if v > m)
}

pub fn list_elems_in_range(
    name: &str,
    elems: &[i64],
    min: Option<i64>,
    max: Option<i64>,
) -> Result<(), String> {
    match elems
        .iter()
        .enumerate()
        .find(|(_, v)| !in_range(**v, min, max))
    {
        None => Ok(()),
        Some((i, v)) => Err(format!(
            "{name}[{i}] is {v}, outside {}",
            range_text(min, max)
        )),
    }
}

pub fn list_unique(name: &str, elems: &[i64]) -> Result<(), String> {
    for (i, v) in elems.iter().enumerate() {
        if let Some(j) = elems[..i].iter().position(|w| w == v) {
            return Err(format!("{name}[{j}] and {name}[{i}] are both {v}"));
        }
    }
    Ok(())
}

pub fn int_in_range(name: &str, v: i64, min: Option<i64>, max: Option<i64>) -> Result<(), String> {
    if in_range(v, min, max) {
        Ok(())
    } else {
        Err(format!("{name} is {v}, outside {}", range_text(min, max)))
    }
}

/// An integer attribute (a bool as 0/1), or each element of a list attribute ("dilation的数值不
/// 等于1" is about every element of `dilation`); `None` when null.
pub fn arg_ints(name: &str, a: Option<&Arg>) -> Result<Option<Vec<i64>>, String> {
    match a.filter(|a| !a.is_null()) {
        None => Ok(None),
        // A bool counts as 0/1 ("modulated参数不等于true" holds it to 1).
        Some(Arg::Bool(b)) => Ok(Some(vec![i64::from(*b)])),
        Some(a) => a
            .as_int()
            .map(|v| vec![v])
            .or_else(|| a.as_int_list())
            .map(Some)
            .ok_or_else(|| format!("{name} is not an integer")),
    }
}

/// A range check on a number (integer or floating: "lambda小于0" is about a float) or on every
/// element of a list attribute. Null arguments pass.
pub fn value_in_range(
    name: &str,
    a: &Arg,
    min: Option<i64>,
    max: Option<i64>,
) -> Result<(), String> {
    if a.is_null() {
        return Ok(());
    }
    if let Some(v) = a.as_int() {
        return int_in_range(name, v, min, max);
    }
    if let Some(x) = a.as_f64() {
        let ok = min.is_none_or(|m| x >= m as f64) && max.is_none_or(|m| x <= m as f64);
        return if ok {
            Ok(())
        } else {
            Err(format!("{name} is {x}, outside {}", range_text(min, max)))
        };
    }
    match a.as_int_list() {
        Some(vs) => vs
            .into_iter()
            .try_for_each(|v| int_in_range(name, v, min, max)),
        None => Err(format!("{name} is not a number")),
    }
}

/// The number (or each element of a list) is not `value`; a null argument is not checked.
pub fn value_not(name: &str, a: &Arg, value: i64) -> Result<(), String> {
    if a.is_null() {
        return Ok(());
    }
    let hit = if let Some(v) = a.as_int() {
        v == value
    } else if let Some(x) = a.as_f64() {
        x == value as f64
    } else {
        match a.as_int_list() {
            Some(vs) => vs.contains(&value),
            None => return Err(format!("{name} is not a number")),
        }
    };
    if hit {
        Err(format!("{name} is {value}, which is not supported"))
    } else {
        Ok(())
    }
}

pub fn int_in(name: &str, v: i64, values: &[i64]) -> Result<(), String> {
    if values.contains(&v) {
        Ok(())
    } else {
        Err(format!("{name} is {v} (supported: {})", join(values)))
    }
}

/// A string attribute's text; `None` when null.
pub fn arg_str<'a>(name: &str, a: Option<&'a Arg>) -> Result<Option<&'a str>, String> {
    match a.filter(|a| !a.is_null()) {
        None => Ok(None),
        Some(a) => a
            .as_str()
            .map(Some)
            .ok_or_else(|| format!("{name} is not a string")),
    }
}

/// The string attribute is one of `values`, compared exactly.
pub fn str_in<S: AsRef<str>>(name: &str, v: &str, values: &[S]) -> Result<(), String> {
    if values.iter().any(|x| x.as_ref() == v) {
        Ok(())
    } else {
        let supported: Vec<String> = values
            .iter()
            .map(|x| format!("\"{}\"", x.as_ref()))
            .collect();
        Err(format!(
            "{name} is \"{v}\" (supported: {})",
            supported.join(", ")
        ))
    }
}

/// The attribute (an integer, or each element of a list) is a dim index of the first tensor:
/// `[-rank, rank-1]`, with a 0-dim tensor indexed like a 1-dim one. Null arguments pass.
pub fn axis_in(name: &str, a: Option<&Arg>, ts: &[Named]) -> Result<(), String> {
    let Some((tname, t)) = ts.first() else {
        return Ok(());
    };
    let values = match a.filter(|a| !a.is_null()) {
        None => return Ok(()),
        Some(a) => a
            .as_int()
            .map(|v| vec![v])
            .or_else(|| a.as_int_list())
            .ok_or_else(|| format!("{name} is not an integer"))?,
    };
    let r = t.rank().max(1) as i64;
    match values.iter().find(|v| **v < -r || **v >= r) {
        None => Ok(()),
        Some(v) => Err(format!(
            "{name} = {v} is not a dim of {tname} (rank {}): allowed [{}, {}]",
            t.rank(),
            -r,
            r - 1
        )),
    }
}

/// Each element of `list` is below the dim of the first tensor it pads: pairs from the last dim
/// on (`list[2i]`, `list[2i+1]` pad dim `-1-i`). A null list or tensor, or a list of odd length
/// or longer than two per dim, is another rule's concern.
pub fn pads_below_dims(name: &str, list: Option<&[i64]>, ts: &[Named]) -> Result<(), String> {
    let (Some(list), Some((tname, t))) = (list, ts.first()) else {
        return Ok(());
    };
    if !list.len().is_multiple_of(2) || list.len() / 2 > t.rank() {
        return Ok(());
    }
    for (i, v) in list.iter().enumerate() {
        let dim = t.shape[t.rank() - 1 - i / 2];
        if *v >= dim {
            return Err(format!(
                "{name}[{i}] = {v} is not below dim {} of {tname} ({dim})",
                -1 - (i / 2) as i64
            ));
        }
    }
    Ok(())
}

/// `lhs <= rhs` for two numeric attributes (integers or doubles: "from大于to"); a null one is
/// not checked.
pub fn value_at_most(
    lhs_name: &str,
    lhs: Option<&Arg>,
    rhs_name: &str,
    rhs: Option<&Arg>,
) -> Result<(), String> {
    let l = arg_number(lhs_name, lhs)?;
    let r = arg_number(rhs_name, rhs)?;
    match (l, r) {
        (Some(l), Some(r)) if l > r => Err(format!("{lhs_name} = {l} exceeds {rhs_name} = {r}")),
        _ => Ok(()),
    }
}

/// A tensor factor of `ProductsEqual`: dim `dim` of the tensor (negative = from the end).
pub fn factor_dim(ts: &[Named], dim: i64) -> Option<i64> {
    let (_, t) = ts.first()?;
    let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
    usize::try_from(i)
        .ok()
        .and_then(|i| t.shape.get(i).copied())
}

/// The product of the tensor's dims from `from` on (1 when it has no more).
pub fn factor_dims_from(ts: &[Named], from: usize) -> Option<i64> {
    let (_, t) = ts.first()?;
    t.shape
        .iter()
        .skip(from)
        .try_fold(1i64, |acc, d| acc.checked_mul(*d))
}

pub fn factor_numel(ts: &[Named]) -> Option<i64> {
    ts.first().and_then(|(_, t)| t.numel())
}

/// A factor's value: unknown (`Ok(None)`) or an argument of the wrong kind (`Err`).
pub type FactorValue = Result<Option<i64>, String>;

/// The products of two lists of factors are equal; any unknown factor skips the check.
pub fn products_equal(
    lhs_text: &str,
    lhs: &[FactorValue],
    rhs_text: &str,
    rhs: &[FactorValue],
) -> Result<(), String> {
    let product = |fs: &[FactorValue]| -> Result<Option<i64>, String> {
        let mut acc = Some(1i64);
        for f in fs {
            let f = f.clone()?;
            acc = acc.zip(f).and_then(|(a, f)| a.checked_mul(f));
        }
        Ok(acc)
    };
    match (product(lhs)?, product(rhs)?) {
        (Some(l), Some(r)) if l != r => Err(format!("{lhs_text} is {l} but {rhs_text} is {r}")),
        _ => Ok(()),
    }
}

/// Integer attribute `name` is a multiple of integer attribute `by_name` (a `by` of 0 is not
/// checked).
pub fn attr_multiple_of(
    name: &str,
    value: Option<&Arg>,
    by_name: &str,
    by: Option<&Arg>,
) -> Result<(), String> {
    match (arg_int(name, value)?, arg_int(by_name, by)?) {
        (Some(v), Some(b)) if b != 0 && v % b != 0 => {
            Err(format!("{name} = {v} is not a multiple of {by_name} = {b}"))
        }
        _ => Ok(()),
    }
}

/// Element-wise `num * lhs[i] <= den * rhs[i]`; a missing element repeats the list's first
/// (aclnn expands length-1 lists). Empty lists are not checked.
pub fn list_elems_at_most_fraction(
    lhs_name: &str,
    lhs: &[i64],
    rhs_name: &str,
    rhs: &[i64],
    num: i64,
    den: i64,
) -> Result<(), String> {
    let (Some(&l0), Some(&r0)) = (lhs.first(), rhs.first()) else {
        return Ok(());
    };
    for i in 0..lhs.len().max(rhs.len()) {
        let l = *lhs.get(i).unwrap_or(&l0);
        let r = *rhs.get(i).unwrap_or(&r0);
        if (num as i128) * (l as i128) > (den as i128) * (r as i128) {
            return Err(format!(
                "{lhs_name}[{i}] = {l} exceeds {den}/{num} of {rhs_name}[{i}] = {r}"
            ));
        }
    }
    Ok(())
}

/// The product of the trailing `dims` dims (all dims when the rank is smaller) is at most `max`.
pub fn element_count_max(ts: &[Named], dims: usize, max: i64) -> Result<(), String> {
    for (name, t) in ts {
        let skip = t.rank().saturating_sub(dims);
        let count = t.shape[skip..]
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d.max(0)));
        match count {
            Some(c) if c <= max => {}
            _ => {
                return Err(format!(
                    "{name}: the product of its last {dims} dims {:?} exceeds {max}",
                    &t.shape[skip..]
                ))
            }
        }
    }
    Ok(())
}
