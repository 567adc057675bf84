#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many processors the loader may keep busy (reading ahead, inferring time zones).
package enum ActiveProcessors {
  /// The processors online now, at least 1.
  package static var count: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
