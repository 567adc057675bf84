import Foundation
import Synchronization
import Testing

@testable import StoreLocator

/// Long work tells a `WorkProgress` how far it got, and `ProgressLine` decides what a terminal
/// shows of it (issue 26 §5); the library itself prints nothing.
@Suite struct WorkProgressTests {
  /// Every step a reporter was told, in order.
  final class Recorder: Sendable {
    final class Steps: Sendable {
      let list = Mutex<[WorkProgress.Step]>([])
    }
    let steps = Steps()
    let progress: WorkProgress

    init() {
      let steps = steps
      progress = WorkProgress { step in steps.list.withLock { $0.append(step) } }
    }

    var recorded: [WorkProgress.Step] { steps.list.withLock { $0 } }
  }

  /// A FeatureCollection of `count` stores, a feature a line (about 300 bytes each).
  static func collection(_ count: Int) -> String {
    var text = #"{"type":"FeatureCollection","features":["# + "\n"
    for number in 0..<count {
      let latitude = Double(number % 1700) / 10 - 85
      let longitude = Double(number % 3500) / 10 - 175
      text +=
        #"{"type":"Feature","id":"s\#(number)","geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude)]},"#
        + #""properties":{"name":"Store \#(number)","opening_hours":"Mo-Fr 08:00-18:00","timezone":"UTC","#
        + #""drive_through":"\#(number % 2 == 0 ? "yes" : "no")","addr:street":"\#(number) Long Street Name"}}"#
        + (number + 1 < count ? ",\n" : "\n")
    }
    return text + "]}\n"
  }

  @Test func loadingTellsHowFarReadingAndIndexingGot() throws {
    let text = Self.collection(16_000)
    #expect(text.utf8.count > 3 * WorkProgress.byteStep)
    let recorder = Recorder()
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "many.geojson", progress: recorder.progress)
    #expect(catalog.stores.count == 16_000)
    let steps = recorder.recorded
    let tasks = steps.map(\.task).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
    #expect(
      tasks == ["reading many.geojson", "compiling opening hours and time zones", "indexing 16000 stores"])
    let reading = steps.filter { $0.task == "reading many.geojson" }
    #expect(reading.allSatisfy { $0.total == text.utf8.count && $0.unit == .bytes })
    #expect(reading.count >= 3, "a report about every megabyte")
    #expect(reading.last?.done == text.utf8.count)
    // The rows are written as the features are read; then each store's hours are compiled and
    // its row settled, which is told store by store.
    let compiling = steps.filter { $0.task == "compiling opening hours and time zones" }
    #expect(compiling.allSatisfy { $0.total == 16_000 && $0.unit == .stores })
    #expect(compiling.count >= 3)
    // Within a task, what is done never goes back (threads read ahead, the reader follows).
    for task in tasks {
      let done = steps.filter { $0.task == task }.map(\.done)
      #expect(done == done.sorted(), "\(task)")
    }
    // The same catalog with or without a reporter.
    let quiet = try Catalog(geoJSON: Array(text.utf8), source: "many.geojson")
    #expect(quiet.dataVersion == catalog.dataVersion)
    #expect(quiet.stores.map(\.id) == catalog.stores.map(\.id))
  }

  @Test func writingASnapshotTellsTheBytesWritten() throws {
    let catalog = try Catalog(geoJSON: Array(Self.collection(2_000).utf8), source: "some.geojson")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "progress-\(UUID().uuidString).snap"
    )
    .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = Recorder()
    try catalog.indexing([], addingSuggested: true, progress: recorder.progress)
      .writeSnapshot(to: path, progress: recorder.progress)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let writing = recorder.recorded.filter { $0.task == "writing \(path)" }
    #expect(writing.last?.done == size)
    #expect(writing.allSatisfy { $0.total == size })
    #expect(recorder.recorded.map(\.task).first == "indexing conditions")
    #expect(recorder.recorded.last?.task == "syncing \(path) to disk")
  }

  @Test func stepsReadAsALine() {
    let reading = WorkProgress.Step(
      task: "reading stores.geojson", done: 157_000_000, total: 412_000_000, unit: .bytes)
    #expect(reading.text == "reading stores.geojson: 412 MB, 38%")
    #expect(
      WorkProgress.Step(task: "reading a.geojson", done: 0, total: 2_500_000, unit: .bytes).text
        == "reading a.geojson: 2.5 MB, 0%")
    #expect(
      WorkProgress.Step(task: "indexing 1000 stores", done: 450, total: 1000, unit: .stores).text
        == "indexing 1000 stores: 45%")
    #expect(
      WorkProgress.Step(task: "syncing x to disk", done: 0, total: 0, unit: .bytes).text
        == "syncing x to disk…")
  }

  @Test func aLineWaitsThenRedrawsInPlaceAtMostTenTimesASecond() {
    var line = ProgressLine(delay: 0.5, interval: 0.1, columns: 40)
    func step(_ task: String, _ done: Int) -> WorkProgress.Step {
      WorkProgress.Step(task: task, done: done, total: 100, unit: .stores)
    }
    // Work that ends within the delay shows nothing, and clears nothing.
    #expect(line.update(step("indexing", 10), at: 100.0) == nil)
    #expect(line.update(step("indexing", 20), at: 100.4) == nil)
    #expect(line.update(step("indexing", 30), at: 100.5) == "\rindexing: 30%")
    #expect(line.update(step("indexing", 31), at: 100.55) == nil)
    #expect(line.update(step("indexing", 40), at: 100.61) == "\rindexing: 40%")
    // A new task is drawn at once, and a shorter line covers what is left of the longer one.
    #expect(line.update(step("writing", 1), at: 100.62) == "\rwriting: 1%  ")
    // Never wider than the terminal (less a column, so it does not wrap).
    let long = String(repeating: "x", count: 60)
    let drawn = line.update(step(long, 5), at: 101.0)
    #expect(drawn?.count == 40)
    #expect(drawn?.hasSuffix("…") == true)
    #expect(line.clear() == "\r" + String(repeating: " ", count: 39) + "\r")
    #expect(line.clear() == nil)

    var quick = ProgressLine()
    #expect(quick.update(step("reading", 50), at: 0) == nil)
    #expect(quick.clear() == nil)
  }
}
