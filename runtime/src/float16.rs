//! IEEE binary16 and bfloat16 bit conversions (round to nearest, ties to even), so tests can
//! write and read 16-bit tensors without a crate.

/// f32 → binary16 bits, round to nearest even; overflow gives ±inf, NaN stays NaN.
pub fn f32_to_f16_bits(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let man = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let mut half_man = man >> shift;
        let rem = man & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        if rem > halfway || (rem == halfway && half_man & 1 == 1) {
            half_man += 1;
        }
        return sign | half_man as u16;
    }
    let half_man = man >> 13;
    let rem = man & 0x1fff;
    let mut out = u32::from(sign) | ((e as u32) << 10) | half_man;
    if rem > 0x1000 || (rem == 0x1000 && half_man & 1 == 1) {
        out += 1; // a carry into the exponent is the correct rounding
    }
    out as u16
}

pub fn f16_bits_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    match exp {
        0 => {
            let v = man as f32 * 2f32.powi(-24);
            if sign != 0 {
                -v
            } else {
                v
            }
        }
        0x1f => f32::from_bits(sign | 0x7f80_0000 | (man << 13)),
        _ => f32::from_bits(sign | ((exp + 112) << 23) | (man << 13)),
    }
}

/// f32 → bfloat16 bits, round to nearest even.
pub fn f32_to_bf16_bits(f: f32) -> u16 {
    let x = f.to_bits();
    if x & 0x7fff_ffff > 0x7f80_0000 {
        return ((x >> 16) | 0x40) as u16;
    }
    let lsb = (x >> 16) & 1;
    (x.wrapping_add(0x7fff + lsb) >> 16) as u16
}

pub fn bf16_bits_to_f32(b: u16) -> f32 {
    f32::from_bits(u32::from(b) << 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_known_values() {
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(65520.0), 0x7c00); // rounds up to inf
        assert_eq!(f32_to_f16_bits(2f32.powi(-24)), 0x0001); // smallest subnormal
        assert_eq!(f32_to_f16_bits(2f32.powi(-26)), 0x0000); // below half of it
        assert_eq!(f16_bits_to_f32(0x3555), 0.333_251_95);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
        assert_eq!(f32_to_f16_bits(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16_bits(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
    }

    /// Cases worked by hand: an f16 subnormal is m * 2^-24 (m < 1024), so x * 2^-24 encodes as x
    /// rounded to an integer, ties to even; 1024 * 2^-24 is the smallest normal (0x0400).
    #[test]
    fn f16_subnormals_and_ties_by_hand() {
        let ulp = 2f32.powi(-24);
        assert_eq!(f32_to_f16_bits(3.0 * ulp), 0x0003);
        assert_eq!(f32_to_f16_bits(1023.0 * ulp), 0x03ff); // largest subnormal
        assert_eq!(f32_to_f16_bits(1024.0 * ulp), 0x0400); // smallest normal
        assert_eq!(f32_to_f16_bits(-ulp), 0x8001);
        assert_eq!(f32_to_f16_bits(2.5 * ulp), 0x0002); // tie: to even 2
        assert_eq!(f32_to_f16_bits(3.5 * ulp), 0x0004); // tie: to even 4
        assert_eq!(f32_to_f16_bits(2.75 * ulp), 0x0003); // above the tie
        assert_eq!(f32_to_f16_bits(1023.5 * ulp), 0x0400); // tie into the normals: 1024 is even
        assert_eq!(f32_to_f16_bits(0.5 * ulp), 0x0000); // tie between 0 and 1: 0
        assert_eq!(f32_to_f16_bits(0.5 * ulp * (1.0 + 2f32.powi(-23))), 0x0001);
        assert_eq!(f32_to_f16_bits(-0.0), 0x8000);
        // Normals: 2049 = 2^11 + 1 is a tie between 2048 (even mantissa) and 2050.
        assert_eq!(f32_to_f16_bits(2049.0), 0x6800);
        assert_eq!(f32_to_f16_bits(2051.0), 0x6802); // tie: 2052 has the even mantissa
        assert_eq!(f32_to_f16_bits(65519.0), 0x7bff); // below the tie with 65536: 65504
        assert_eq!(f32_to_f16_bits(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16_bits(f32::NAN), 0x7e00);
        assert_eq!(f16_bits_to_f32(0x0001), ulp);
        assert_eq!(f16_bits_to_f32(0x83ff), -1023.0 * ulp);
    }

    #[test]
    fn f16_round_trips_every_finite_value() {
        for h in 0u16..=0xffff {
            let f = f16_bits_to_f32(h);
            if f.is_nan() {
                assert!(f16_bits_to_f32(f32_to_f16_bits(f)).is_nan());
            } else {
                assert_eq!(f32_to_f16_bits(f), h, "{h:#06x}");
            }
        }
    }

    #[test]
    fn bf16_rounds_to_nearest_even() {
        assert_eq!(f32_to_bf16_bits(1.0), 0x3f80);
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f80_8000)), 0x3f80); // tie to even
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f81_8000)), 0x3f82); // tie to even
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f80_8001)), 0x3f81);
        assert_eq!(bf16_bits_to_f32(0x4049), 3.140_625);
    }
}
