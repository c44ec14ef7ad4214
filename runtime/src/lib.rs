//! aclnn-runtime: the vocabulary shared by aclgen, its rule interpreter and the validators it
//! generates — data types, formats, products, tensor descriptions, status codes and rules.

pub mod check;
pub mod float16;
pub mod pred;
pub mod products;
pub mod rule;
pub mod soc;
#[cfg(feature = "testing")]
pub mod testing;
pub mod value;
pub mod vocab;

pub use check::check;
pub use products::{ProductInfo, PRODUCTS};
pub use rule::{CheckedRule, Factor, Family, Rule, Stage, TensorState};
pub use soc::{Soc, SOCS};
pub use value::{status, AclnnError, Arg, Call, TensorDesc};
pub use vocab::{DType, Format, Product};
