#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The C library's functions under names that do not clash with members; GeoIndex depends on
// nothing but the standard library and the platform's libm.
@usableFromInline func _sin(_ x: Double) -> Double { sin(x) }
@usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline func _asin(_ x: Double) -> Double { asin(x) }
@usableFromInline func _sqrt(_ x: Double) -> Double { x.squareRoot() }
func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

/// Sine and cosine of two angles at once, for |x| ≤ π (the tree's latitudes and longitudes in
/// radians), within one unit in the last place of the correctly rounded values.
///
/// The tree build computes a million unit vectors; the platform's `sin` and `cos` are four calls a
/// point, this is one pass over two lanes with no branch. The argument is reduced by the nearest
/// multiple of π/2 (π/2 in three parts, Cody–Waite, exact for these quadrants), then the minimax
/// polynomials of the classic fdlibm kernels on [-π/4, π/4] give both values, which the quadrant
/// swaps and negates. The results may differ from `_sin`/`_cos` in the last bit; a search only
/// needs the unit vectors to about 10⁻¹⁵ (`View.chordTieTolerance` is 10⁻¹²).
@inline(__always)
func sinCos(_ x: SIMD2<Double>) -> (sin: SIMD2<Double>, cos: SIMD2<Double>) {
  typealias V = SIMD2<Double>
  // Adding 1.5·2⁵² rounds to an integer, which then sits in the low bits of the pattern.
  let shifter = V(repeating: 0x1.8p52)
  let shifted: V = x * 0.636_619_772_367_581_343_08 + shifter
  let n: V = shifted - shifter
  let quadrant = SIMD2<UInt64>(shifted.x.bitPattern, shifted.y.bitPattern)
  let r0: V = x - n * 1.570_796_326_734_125_614_17
  let r1: V = r0 - n * 6.077_100_506_303_965_976_60e-11
  let r: V = r1 - n * 2.022_266_248_795_950_631_54e-21
  let z: V = r * r
  // sin r = r + r·z·S(z)
  var s: V = z * 1.589_690_995_211_550_102_21e-10 - 2.505_076_025_340_686_341_95e-08
  s = s * z + 2.755_731_370_707_006_767_89e-06
  s = s * z - 1.984_126_982_985_794_931_34e-04
  s = s * z + 8.333_333_333_322_489_461_24e-03
  s = s * z - 1.666_666_666_666_663_243_48e-01
  let sine: V = r + (r * z) * s
  // cos r = 1 - z/2 + z²·C(z), with the rounding of 1 - z/2 carried separately.
  var c: V = z * -1.135_964_755_778_819_482_65e-11 + 2.087_572_321_298_174_827_90e-09
  c = c * z - 2.755_731_435_139_066_330_35e-07
  c = c * z + 2.480_158_728_947_672_941_78e-05
  c = c * z - 1.388_888_888_887_410_957_49e-03
  c = c * z + 4.166_666_666_666_660_190_37e-02
  let half: V = 0.5 * z
  let w: V = 1 - half
  let carried: V = ((1 - w) - half) + (z * z) * c
  let cosine: V = w + carried
  // Quadrant q: sin x = (s, c, -s, -c)[q], cos x = (c, -s, -c, s)[q].
  let swap = (quadrant & 1) .!= 0
  let sinBits = sine.replacing(with: cosine, where: swap)
  let cosBits = cosine.replacing(with: sine, where: swap)
  let sinSign = (quadrant & 2) &<< 62
  let cosSign = ((quadrant &+ 1) & 2) &<< 62
  return (
    V(
      Double(bitPattern: sinBits.x.bitPattern ^ sinSign.x),
      Double(bitPattern: sinBits.y.bitPattern ^ sinSign.y)),
    V(
      Double(bitPattern: cosBits.x.bitPattern ^ cosSign.x),
      Double(bitPattern: cosBits.y.bitPattern ^ cosSign.y))
  )
}
