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
