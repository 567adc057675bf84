import Testing

@testable import OpeningHours

/// Tolerated values whose days were read wrong (issue 13: every tolerated reading is one we would
/// defend): the times of one rule moved to every day, a listed weekday left open all day, the
/// weekdays of one rule given another's hours. Each is now read as meant, or refused where two
/// readings are plausible. The expected normal forms are written by hand.
@Suite("Misread days")
struct MisreadingTests {
  @Test(
    "values read as meant, shown by their normal form",
    arguments: [
      // The list `Saturday, Sunday` ends at its comma: Sunday is closed, Saturday has the times
      // before it, as every rule of the value writes its weekdays after its times.
      Spelling(
        text: "8am to 6pm Monday to Thursday, 8am to 5:30pm Friday, 8am to 11:30am Saturday, Sunday Closed",
        normalized: "Mo-Th 08:00-18:00, Fr 08:00-17:30, Sa 08:00-11:30, Su off"),
      // Sunday has its own times, so the list before them ends at its comma (or `and`).
      Spelling(
        text: "9 AM - 9 PM Monday - Saturday, Sunday 1 PM - 9 PM",
        normalized: "Mo-Sa 09:00-21:00, Su 13:00-21:00"),
      Spelling(
        text: "11 am - 12 am mon-sat and Sunday 1pm - 10pm", normalized: "Mo-Sa 11:00-24:00, Su 13:00-22:00"),
      Spelling(
        text: "09:30 - 17:30 Tuesday to Friday, Saturday 09:00 - 17:30, Sunday 10:00 -  16:00",
        normalized: "Tu-Fr 09:30-17:30, Sa 09:00-17:30, Su 10:00-16:00"),
      Spelling(
        text: "7:00am - 5:30pm Mon-Fri Sat 9:00am - 5:30pm", normalized: "Mo-Fr 07:00-17:30; Sa 09:00-17:30"),
      // A comma between the weekdays and `de`: not "Monday to Friday all day, and 11:30-13:00 daily".
      Spelling(text: "Du lundi au vendredi, de 11h30 à 13h", normalized: "Mo-Fr 11:30-13:00"),
      Spelling(text: "Monday to Saturday, from 9:00 AM to 6:00 PM", normalized: "Mo-Sa 09:00-18:00"),
      // A comma between the times and the weekdays that end the rule.
      Spelling(text: "9am - 5pm, Monday - Friday", normalized: "Mo-Fr 09:00-17:00"),
      Spelling(text: "9:00-22:00, Pon-Sob", normalized: "Mo-Sa 09:00-22:00"),
      Spelling(text: "8h-20h, tous les jours", normalized: "Mo-Su 08:00-20:00"),
      // A space between weekdays: a list where no range is meant (a range on either side,
      // neighbouring days, or three days and more); not "Monday to Wednesday all day".
      Spelling(text: "Mo-We Fr 10:00-19:00", normalized: "Mo-We,Fr 10:00-19:00"),
      Spelling(
        text: "Mo-Fr 10:00-24:00, Sa Su 08:00-24:00", normalized: "Mo-Fr 10:00-24:00, Sa,Su 08:00-24:00"),
      Spelling(text: "Tu Th Fr 09:30-16:30", normalized: "Tu,Th,Fr 09:30-16:30"),
      Spelling(text: "Tu-Fr 09:00-15:00; Sa, Su  Mo off", normalized: "Tu-Fr 09:00-15:00; Sa,Su,Mo off"),
    ])
  func reading(_ r: Spelling) throws {
    let hours = try OpeningHours(parsing: r.text)
    #expect(hours.normalized == r.normalized)
    #expect(!hours.warnings.isEmpty)
  }

  @Test("the first brief value means what its plain spelling with ';' means, every hour of a week")
  func sameAsSemicolons() throws {
    let text = "8am to 6pm Monday to Thursday, 8am to 5:30pm Friday, 8am to 11:30am Saturday, Sunday Closed"
    let plain = "Mo-Th 08:00-18:00; Fr 08:00-17:30; Sa 08:00-11:30; Su off"
    let zone = TimeZoneRules.fixed(offsetSeconds: 0, identifier: "Test/UTC")
    let a = Schedule(try OpeningHours(parsing: text), timeZone: zone)
    let b = Schedule(try OpeningHours(parsing: plain), timeZone: zone)
    // 2026-03-02 is a Monday; every half hour of that week.
    let monday = 1_772_409_600
    for step in 0..<(7 * 48) {
      let at = Instant(secondsSinceEpoch: Int64(monday + step * 1800))
      #expect(a.status(at: at) == b.status(at: at), "\(at)")
    }
  }

  @Test(
    "values with two plausible readings are refused where the question lies",
    arguments: [
      // Every day? Monday to Thursday? The other days?
      Refusal(
        text: "4 pm - 11 pm Monday - Thursday, 4 pm - 12 am", position: 32,
        expected: "weekdays for the times after ','"),
      // Alone, "Saturday 8-11:30, Sunday closed" or "8-11:30 daily, Saturday and Sunday closed".
      Refusal(
        text: "8am-11:30am Saturday, Sunday Closed", position: 20,
        expected: "';' after the weekdays of these times"),
      // Which of Monday to Friday, Saturday have 9-17?
      Refusal(
        text: "9-17 Mo-Fr, Sa, Su 10-12", position: 10, expected: "';' after the weekdays of these times"),
      // "Every day 9-13, weekdays 16-18 only", or weekdays 9-13 and 16-18?
      Refusal(
        text: "9:00 - 13:00; 16:00 - 18:00 Mo - Fr", position: 14, expected: "weekdays before the times"),
      // Monday and Friday, or Monday to Friday?
      Refusal(text: "Mo Fr 10:00-15:00", position: 3, expected: "',' or '-' between the weekdays"),
      Refusal(text: "Lunes Viernes 8:00 - 20:00", position: 6, expected: "',' or '-' between the weekdays"),
      // The holidays in the list, or the holidays on a weekend?
      Refusal(text: "Sa Su PH 10:00-22:00", position: 6, expected: "',' before the holidays"),
      Refusal(text: "PH Fr Su off", position: 3, expected: "',' after the holidays"),
      // A day named twice is not a list.
      Refusal(text: "Mo-Th Mo 08:00-12:30", position: 0, expected: "weekdays named once"),
      // `.` or `:` between weekdays: a list or a range? ("Monday all day" before.)
      Refusal(text: "Mo.Fr 11:00-18:00", position: 3, expected: "',' between weekdays, or times"),
      Refusal(text: "Mo:Su 07:00-02:30", position: 3, expected: "',' between weekdays, or times"),
      // Overlapping spans side by side are the hours of other days (Sunday's, `niedziela`).
      Refusal(
        text: "6.00-20.00 12.00-19.00 niedziela", position: 11,
        expected: "';' between the hours of different days"),
    ])
  func refused(_ r: Refusal) {
    expectRefused(r)
  }
}
