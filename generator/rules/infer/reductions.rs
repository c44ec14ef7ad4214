//! What a reduction's parameters say of its output shape: the Bool that keeps the reduced dims
//! and what an empty dims list means (`rules::outputs` makes `ShapeFrom::Reduce` of them).

use super::sentences;
use crate::ir::{Param, ParamKind};
use crate::rules::text::re;

// A Bool that keeps the reduced dims: "reduce轴的维度是否保留", "是否在输出张量中保留输入张量的
// 维度", "决定输出张量是否保留dim参数指定的轴".
re!(
    KEEPS_DIMS,
    r"保留[^。；;]{0,12}(?:维度|轴)|(?:维度|轴)[^。；;]{0,4}是否保留"
);
/// Whether Bool parameter `p` says it keeps the reduced dims in the output (keepdim).
pub fn keeps_reduced_dims(p: &Param) -> bool {
    p.kind() == ParamKind::Bool && sentences(p).iter().any(|s| KEEPS_DIMS.is_match(s))
}

/// The value of Bool parameter `p` that makes an empty dims list compute nothing, where its
/// text says so ("true：不进行计算，输出张量等于输入张量").
pub fn empty_dims_noop_value(p: &Param) -> Option<bool> {
    p.constraints
        .iter()
        .find_map(|c| crate::read::empty_dims_noop_value(c))
}

/// Whether dims parameter `p` says an empty or null list reduces every dim.
pub fn empty_means_every_dim(p: &Param) -> bool {
    p.constraints
        .iter()
        .any(|c| crate::read::empty_reduces_every_dim(c))
}
