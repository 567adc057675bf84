/// One local calendar day of a schedule: the spans in which the place is not closed.
public struct ScheduleDay: Hashable, Sendable {
  /// A part of the day, in the place's wall clock.
  public struct Span: Hashable, Sendable {
    /// Where the span starts this day; `nil` when it began the day before (it runs past midnight).
    public let start: LocalDateTime?
    /// Where it ends; on a later day when it runs past midnight, `nil` beyond the listed range.
    public let end: LocalDateTime?
    public let status: OpeningStatus
  }

  public let date: LocalDate
  /// Open and unknown spans starting this day, plus the one running into it from the day before;
  /// empty when the place is closed all day.
  public let spans: [Span]
}

extension Schedule {
  /// The open and unknown spans of `count` local days from `firstDay`, for a week view.
  ///
  /// A span that runs past midnight is listed on the day it starts (with its end on the later
  /// day) and, on each later day it covers, as running in from before (`start == nil`): a 24/7
  /// place is open on every day of the list.
  /// - Complexity: O(changes in the range).
  public func days(from firstDay: LocalDate, count: Int) -> [ScheduleDay] {
    guard count > 0 else { return [] }
    let midnight = { (date: LocalDate) in
      TimeQuery.wallTime(LocalDateTime(date: date, secondsIntoDay: 0)).instant(in: timeZone)
    }
    let rangeStart = midnight(firstDay)
    let rangeEnd = midnight(firstDay.adding(days: count))
    // From a day earlier, so a span running into the first day shows where it began.
    let intervals = intervals(from: rangeStart - 86_400, to: rangeEnd).filter { $0.status.state != .closed }
    return (0..<count).map { offset in
      let date = firstDay.adding(days: offset)
      let dayStart = midnight(date)
      let dayEnd = midnight(date.adding(days: 1))
      var spans: [ScheduleDay.Span] = []
      for interval in intervals where interval.start < dayEnd && interval.end > dayStart {
        let startsToday = interval.start >= dayStart
        spans.append(
          ScheduleDay.Span(
            start: startsToday ? timeZone.localDateTime(at: interval.start) : nil,
            end: interval.end >= rangeEnd ? nil : timeZone.localDateTime(at: interval.end),
            status: interval.status))
      }
      return ScheduleDay(date: date, spans: spans)
    }
  }
}
