import Testing

@testable import OpeningHours

/// The syntax the reference engines accept and real data uses (issue 13): each deviation is read
/// with its own warning code and means exactly what an equivalent strict spelling, parsed by our own
/// parser, means.
@Suite("Tolerated syntax")
struct ToleratedSyntaxTests {

  @Test(
    "each tolerated form warns with its code and reads as its strict spelling",
    arguments: [
      Tolerance(text: "10-12", code: "bare-hour", range: 0..<2, strict: "10:00-12:00"),
      Tolerance(text: "Mo 7-18", code: "bare-hour", range: 3..<4, strict: "Mo 07:00-18:00"),
      Tolerance(text: "Nov-Feb 00-24", code: "bare-hour", range: 8..<10, strict: "Nov-Feb 00:00-24:00"),
      Tolerance(text: "22-2", code: "bare-hour", range: 0..<2, strict: "22:00-02:00"),
      Tolerance(text: "Mo 9-18 Uhr", code: "bare-hour", range: 3..<4, strict: "Mo 09:00-18:00"),
      Tolerance(text: "Mo 12:00 til 14:00", code: "range-word", range: 9..<12, strict: "Mo 12:00-14:00"),
      Tolerance(
        text: "Mo-Fr 09:00 bis 18:00", code: "range-word", range: 12..<15, strict: "Mo-Fr 09:00-18:00"),
      Tolerance(text: "Mo 12:00 à 14:00", code: "range-word", range: 9..<10, strict: "Mo 12:00-14:00"),
      Tolerance(text: "Mo 12:00 до 14:00", code: "range-word", range: 9..<11, strict: "Mo 12:00-14:00"),
      Tolerance(text: "Mo 12:00 às 14:00", code: "range-word", range: 9..<11, strict: "Mo 12:00-14:00"),
      Tolerance(text: "Mo 12:00→14:00", code: "dash-variant", range: 8..<9, strict: "Mo 12:00-14:00"),
      Tolerance(text: "Mo 12:00ー14:00", code: "dash-variant", range: 8..<9, strict: "Mo 12:00-14:00"),
      Tolerance(
        text: "Mo 10:00-12:00 \u{201C}call\u{201D}", code: "quote-variant", range: 15..<21,
        strict: "Mo 10:00-12:00 \"call\""),
      Tolerance(
        text: "Mo 10:00-12:00 «call»", code: "quote-variant", range: 15..<21,
        strict: "Mo 10:00-12:00 \"call\""),
      Tolerance(
        text: "Montags 07:00-18:00", code: "localized-weekday", range: 0..<7, strict: "Mo 07:00-18:00"),
      Tolerance(
        text: "lundi,vendredi 10:00-18:00", code: "localized-weekday", range: 0..<5,
        strict: "Mo,Fr 10:00-18:00"),
      Tolerance(
        text: "sábado 10:00-14:00", code: "localized-weekday", range: 0..<6, strict: "Sa 10:00-14:00"),
      Tolerance(
        text: "Lunedì-Venerdì 09:00-13:00", code: "localized-weekday", range: 0..<6,
        strict: "Mo-Fr 09:00-13:00"),
      Tolerance(
        text: "segunda-feira 09:00-13:00", code: "localized-weekday", range: 0..<13, strict: "Mo 09:00-13:00"),
      Tolerance(
        text: "ma-vr 09:00-17:00", code: "localized-weekday", range: 0..<2, strict: "Mo-Fr 09:00-17:00"),
      Tolerance(
        text: "Mo-Do 08:00-16:00", code: "localized-weekday", range: 3..<5, strict: "Mo-Th 08:00-16:00"),
      Tolerance(
        text: "Mo-So 08:00-22:00", code: "localized-weekday", range: 3..<5, strict: "Mo-Su 08:00-22:00"),
      Tolerance(
        text: "Lu-Di 10:00-18:00", code: "localized-weekday", range: 0..<2, strict: "Mo-Su 10:00-18:00"),
      Tolerance(
        text: "Пн-Пт 09:00-18:00", code: "localized-weekday", range: 0..<2, strict: "Mo-Fr 09:00-18:00"),
      Tolerance(
        text: "pon-pt 08:00-20:00", code: "localized-weekday", range: 0..<3, strict: "Mo-Fr 08:00-20:00"),
      Tolerance(text: "januar 10:00-18:00", code: "localized-month", range: 0..<6, strict: "Jan 10:00-18:00"),
      Tolerance(text: "juin 10:00-18:00", code: "localized-month", range: 0..<4, strict: "Jun 10:00-18:00"),
      Tolerance(text: "enero 10:00-18:00", code: "localized-month", range: 0..<5, strict: "Jan 10:00-18:00"),
      Tolerance(
        text: "gennaio 10:00-18:00", code: "localized-month", range: 0..<7, strict: "Jan 10:00-18:00"),
      Tolerance(text: "Dez 24 off", code: "localized-month", range: 0..<3, strict: "Dec 24 off"),
      Tolerance(text: "daily 10:00-18:00", code: "every-day-word", range: 0..<5, strict: "Mo-Su 10:00-18:00"),
      Tolerance(
        text: "10:00-18:00 täglich", code: "every-day-word", range: 12..<19, strict: "Mo-Su 10:00-18:00"),
      Tolerance(
        text: "tous les jours 10h-18h", code: "every-day-word", range: 0..<14, strict: "Mo-Su 10:00-18:00"),
      Tolerance(text: "8h-20h 7j/7", code: "every-day-word", range: 7..<11, strict: "Mo-Su 08:00-20:00"),
      Tolerance(
        text: "wd 07:00-20:00; Sa,Su 08:00-18:00", code: "weekday-group-word", range: 0..<2,
        strict: "Mo-Fr 07:00-20:00; Sa,Su 08:00-18:00"),
      Tolerance(
        text: "Weekends 10:00-16:00", code: "weekday-group-word", range: 0..<8, strict: "Sa-Su 10:00-16:00"),
      Tolerance(
        text: "Mo 12:00-14：00", code: "fullwidth-character", range: 11..<12, strict: "Mo 12:00-14:00"),
      Tolerance(text: "１０:００-１２:００", code: "fullwidth-character", range: 0..<2, strict: "10:00-12:00"),
      Tolerance(text: "17:00-late", code: "open-end-word", range: 5..<10, strict: "17:00+"),
      Tolerance(text: "17:00 till late", code: "open-end-word", range: 6..<15, strict: "17:00+"),
      Tolerance(text: "17:00-open end", code: "open-end-word", range: 5..<14, strict: "17:00+"),
      Tolerance(text: "17:00 bis Open End", code: "open-end-word", range: 6..<18, strict: "17:00+"),
      Tolerance(text: "Dec 24,25 off", code: "monthday-list", range: 6..<9, strict: "Dec 24,Dec 25 off"),
      Tolerance(
        text: "Jan 01,Dec 11,15-17,24", code: "monthday-list", range: 13..<19,
        strict: "Jan 01,Dec 11,Dec 15-Dec 17,Dec 24"),
      Tolerance(text: "Dec 25+ off", code: "open-ended-date", range: 6..<7, strict: "Dec 25-Dec 31 off"),
      Tolerance(text: "May2+", code: "open-ended-date", range: 4..<5, strict: "May 02-Dec 31"),
      Tolerance(text: "24/7: closed", code: "stray-colon", range: 4..<5, strict: "24/7 closed"),
      Tolerance(text: "PH: off", code: "stray-colon", range: 2..<3, strict: "PH off"),
      Tolerance(
        text: "Mo-Su week 05 Feb 00:00-24:00", code: "selector-order", range: 6..<17,
        strict: "Feb week 05 Mo-Su 00:00-24:00"),
      Tolerance(
        text: "00:00-24:00 week 05 Feb", code: "selector-order", range: 12..<19,
        strict: "Feb week 05 00:00-24:00"),
      Tolerance(
        text: "week 05 Feb 10:00-12:00", code: "selector-order", range: 8..<11,
        strict: "Feb week 05 10:00-12:00"),
      Tolerance(
        text: "10:00-18:00 Apr-Sep", code: "selector-order", range: 12..<19, strict: "Apr-Sep 10:00-18:00"),
      Tolerance(
        text: "00:00-24:00 Mo-Su week 05 Feb", code: "selector-order", range: 12..<17,
        strict: "Feb week 05 Mo-Su 00:00-24:00"),
      Tolerance(
        text: "week 05 10:00-12:00 Feb", code: "selector-order", range: 20..<23,
        strict: "Feb week 05 10:00-12:00"),
      Tolerance(
        text: "12h-15h et 19h-23h", code: "and-word", range: 8..<10, strict: "12:00-15:00,19:00-23:00"),
      Tolerance(text: "Mo & Th 10:00-12:00", code: "and-word", range: 3..<4, strict: "Mo,Th 10:00-12:00"),
      Tolerance(
        text: "9h-12h / 14h-19h", code: "slash-between-times", range: 7..<8, strict: "09:00-12:00,14:00-19:00"
      ),
      Tolerance(text: "from 9am to 5pm", code: "from-word", range: 0..<4, strict: "09:00-17:00"),
      Tolerance(
        text: "du lundi au vendredi de 8h30 à 19h30", code: "from-word", range: 0..<2,
        strict: "Mo-Fr 08:30-19:30"),
      Tolerance(
        text: "opening_hours=Mo-Fr 09:00-17:00", code: "key-prefix", range: 0..<14,
        strict: "Mo-Fr 09:00-17:00"),
      Tolerance(
        text: "opening_hours = Mo-Fr 09:00-17:00", code: "key-prefix", range: 0..<15,
        strict: "Mo-Fr 09:00-17:00"),
      Tolerance(text: "M-F 9am-5pm", code: "single-letter-day", range: 0..<1, strict: "Mo-Fr 09:00-17:00"),
      Tolerance(
        text: "M,W,F 10:00-14:00", code: "single-letter-day", range: 0..<1, strict: "Mo,We,Fr 10:00-14:00"),
      Tolerance(
        text: "Lun - Jue: 9:00 - 23:00 Vie - Sáb: 9:00 - 1:00", code: "single-digit-hour", range: 11..<12,
        strict: "Mo-Th 09:00-23:00; Fr-Sa 09:00-01:00"),
      Tolerance(text: "12noon-6pm", code: "time-word", range: 0..<6, strict: "12:00-18:00"),
      Tolerance(text: "Fr 11am-Midnight", code: "time-word", range: 8..<16, strict: "Fr 11:00-24:00"),
      Tolerance(text: "Sa 8:30am to 12 noon", code: "time-word", range: 13..<20, strict: "Sa 08:30-12:00"),
      Tolerance(text: "always", code: "around-the-clock-word", range: 0..<6, strict: "24/7"),
      Tolerance(text: "nonstop closed", code: "around-the-clock-word", range: 0..<7, strict: "24/7 closed"),
      Tolerance(text: "24 hours 7 days a week", code: "around-the-clock-word", range: 0..<22, strict: "24/7"),
      Tolerance(text: "24x7", code: "around-the-clock-word", range: 0..<4, strict: "24/7"),
      Tolerance(text: "all day", code: "around-the-clock-word", range: 0..<7, strict: "24/7"),
      Tolerance(
        text: "Jan 11-Jan 15: week 02: 10:00-12:00", code: "stray-colon", range: 13..<14,
        strict: "Jan 11-Jan 15 week 02: 10:00-12:00"),
      Tolerance(text: "nonstop geöffnet", code: "around-the-clock-word", range: 0..<16, strict: "24/7"),
      Tolerance(
        text: "Öffnungszeiten: Mo-Fr 09:00-18:00", code: "key-prefix", range: 0..<15,
        strict: "Mo-Fr 09:00-18:00"),
      Tolerance(
        text: "public holidays 10:00-12:00", code: "holiday-word", range: 0..<15, strict: "PH 10:00-12:00"),
      Tolerance(text: "Su,holidays off", code: "holiday-word", range: 3..<11, strict: "Su,PH off"),
      Tolerance(
        text: "day before public holiday Mo-We", code: "holiday-word", range: 0..<25,
        strict: "PH -1 day Mo-We"),
      Tolerance(
        text: "one day after public holiday 10:00-12:00", code: "holiday-word", range: 0..<28,
        strict: "PH +1 day 10:00-12:00"),
      Tolerance(text: "Feiertage geschlossen", code: "holiday-word", range: 0..<9, strict: "PH off"),
      Tolerance(
        text: "Mo geschl., Tu 14:00-18:00", code: "localized-state", range: 3..<10,
        strict: "Mo off, Tu 14:00-18:00"),
      Tolerance(text: "dimanche fermé", code: "localized-state", range: 9..<14, strict: "Su off"),
      Tolerance(text: "PH: We,Fr", code: "stray-colon", range: 2..<3, strict: "PH We,Fr"),
      Tolerance(text: "We,Fr: PH", code: "stray-colon", range: 5..<6, strict: "PH We,Fr"),
      Tolerance(
        text: "24/7 closed: \"always closed\"", code: "stray-colon", range: 11..<12,
        strict: "24/7 closed \"always closed\""),
      Tolerance(
        text: "Off 14:00-16:00", code: "modifier-before-selector", range: 0..<3, strict: "14:00-16:00 off"),
      Tolerance(
        text: "We \"call us\" 10:00-16:00", code: "modifier-before-selector", range: 3..<12,
        strict: "We 10:00-16:00 \"call us\""),
      Tolerance(
        text: "\"call us\" We 10:00-16:00", code: "modifier-before-selector", range: 0..<9,
        strict: "We 10:00-16:00 \"call us\""),
      Tolerance(
        text: "Mo-Fr 09:00-12:00 und Sa 10:00-12:00", code: "and-word", range: 18..<21,
        strict: "Mo-Fr 09:00-12:00, Sa 10:00-12:00"),
      Tolerance(
        text: "Oct Tu-Su 10:00-14:30 Nov off", code: "missing-rule-separator", range: 22..<22,
        strict: "Oct Tu-Su 10:00-14:30; Nov off"),
      Tolerance(
        text: "Sa nach Vereinbarung", code: "unquoted-comment", range: 3..<20,
        strict: "Sa \"nach Vereinbarung\""),
      Tolerance(
        text: "By appointment only", code: "unquoted-comment", range: 0..<19,
        strict: "\"By appointment only\""),
      Tolerance(
        text: "Mo sur rendez-vous", code: "unquoted-comment", range: 3..<18, strict: "Mo \"sur rendez-vous\""),
      Tolerance(text: "Mo-Fr 9⁰⁰-18³⁰", code: "digit-variant", range: 7..<9, strict: "Mo-Fr 09:00-18:30"),
      Tolerance(text: "Mo 12°°-14:00", code: "digit-variant", range: 5..<7, strict: "Mo 12:00-14:00"),
      Tolerance(text: "Mo ₀₀:₃₀-₁₄:₀₉", code: "digit-variant", range: 3..<5, strict: "Mo 00:30-14:09"),
      Tolerance(text: "月曜日-金曜日 09:00-17:00", code: "weekday-name", range: 0..<3, strict: "Mo-Fr 09:00-17:00"),
      Tolerance(
        text: "الاثنين-الجمعة 09:00-17:00", code: "weekday-name", range: 0..<7, strict: "Mo-Fr 09:00-17:00"),
    ])
  func tolerated(_ t: Tolerance) throws {
    try expectTolerated(t)
  }

  @Test(
    "a stray colon's note names what it follows",
    arguments: [("PH: off", "holidays"), ("Mo-Fr: 09:00-17:00", "weekdays"), ("Sa,PH: 10:00-12:00", "days")])
  func strayColonNamesWhatItFollows(text: String, written: String) throws {
    let warnings = try OpeningHours(parsing: text).warnings.filter { $0.code == "stray-colon" }
    #expect(warnings.map(\.message) == ["no ':' after \(written)"])
  }

  @Test(
    "am/pm on the end only is read where the start cannot take it",
    arguments: [
      ("10:00-6pm", "10:00-18:00"), ("Sa 8:00 - 1:30pm", "Sa 08:00-13:30"), ("11:30-9:00pm", "11:30-21:00"),
      ("12:00-5pm", "12:00-17:00"), ("09:00-12:00am", "09:00-24:00"),
    ])
  func meridiemOnTheEnd(value: String, strict: String) throws {
    #expect(try rulesIgnoringRanges(value) == rulesIgnoringRanges(strict))
  }

  @Test(
    "an end before the start is a night where the value counts hours to 24, or ends at 0:00",
    arguments: [
      ("Lun - Jue: 9:00 - 23:00 Vie - Sáb: 9:00 - 1:00", "Mo-Th 09:00-23:00; Fr-Sa 09:00-01:00"),
      ("Mo-Fr 11:00 - 0:00", "Mo-Fr 11:00-00:00"), ("Fr 22:00-2:00", "Fr 22:00-02:00"),
      ("Fr 9pm-2:00", "Fr 21:00-02:00"),
      ("Mo-Fr 11:00-23:00; Sa 10:00-midnight", "Mo-Fr 11:00-23:00; Sa 10:00-24:00"),
    ])
  func nightSpans(value: String, strict: String) throws {
    #expect(try rulesIgnoringRanges(value) == rulesIgnoringRanges(strict))
  }

  @Test("single days alone beside other rules stay whole days, in a tolerated value too")
  func singleDaysStayWholeDays() throws {
    #expect(
      try rulesIgnoringRanges("Jan 01,Dec 24,25; Nov Th[4]")
        == rulesIgnoringRanges("Jan 01,Dec 24,Dec 25; Nov Th[4]"))
  }

  @Test("a year on an open-ended date reads as from that day on")
  func openEndedWithYear() throws {
    let rule = try OpeningHours(parsing: "2019 Sep 01+ 10:00-12:00").rules[0]
    #expect(
      rule.monthdays == [
        .dates(
          from: DatePoint(year: 2019, anchor: .fixed(month: 9, day: 1), offsetDays: 0),
          to: DatePoint(year: 9999, anchor: .fixed(month: 12, day: 31), offsetDays: 0))
      ])
  }

  @Test(
    "forms with two plausible readings are refused, with the reason",
    arguments: [
      // 12-hour or 24-hour?
      Refusal(text: "10-2", position: 0, expected: "times with minutes"),
      Refusal(text: "12-1", position: 0, expected: "times with minutes"),
      Refusal(text: "1-5", position: 0, expected: "times with minutes"),
      Refusal(text: "4-10 pm", position: 0, expected: "times with minutes"),
      Refusal(text: "8-12, 1-5", position: 6, expected: "times with minutes"),
      // `Di` is Tuesday in German and Dutch, Sunday in French; `Sa` (not Dutch) leaves German or French.
      Refusal(text: "Di-Sa 10:00-18:00", position: 0, expected: "a weekday, a time, a date"),
      // `Ma` is Tuesday in French, Spanish and Italian, Monday in Dutch; `Do` Thursday or Sunday.
      Refusal(text: "Ma-Do 10:00-18:00", position: 0, expected: "a weekday, a time, a date"),
      // Polish and German names together: no language is common to both.
      Refusal(text: "PN-SO 07:00-14:00", position: 0, expected: "a weekday, a time, a date"),
      // `mar` beside Spanish weekdays could be March or Tuesday.
      Refusal(text: "lun-mar 10:00-12:00", position: 4, expected: "a weekday such as Fr after '-'"),
      // "Sunday to Sunday" is said for every day.
      Refusal(text: "domingo a domingo 10:00-12:00", position: 10, expected: "a range between two different"),
      // `daily` says which days, not the hours.
      Refusal(text: "daily", position: 5, expected: "times for 'daily'"),
      Refusal(text: "7 days a week", position: 13, expected: "times for '7 days a week'"),
      // The '+' between two spans is "and", not an open end.
      Refusal(text: "08:30-12:30 + 14:00-17:00", position: 14, expected: "',' or ';' after an open end"),
      // After a month, `2012-2014` is as likely years as a compact time range.
      Refusal(text: "week 05 Feb 2012-2014", position: 12, expected: "a time such as 09:00-18:00"),
      // After `und`, Saturday all day, or Saturday with the times before?
      Refusal(text: "Mo-Fr 9:00-12:00 und Sa", position: 21, expected: "';' before the next rule, and times"),
      // `open` written first and no times: the days it is open, not "around the clock".
      Refusal(text: "Open daily", position: 10, expected: "times after 'Open'"),
      Refusal(text: "8am - 6pm, Open daily", position: 21, expected: "times after 'Open'"),
      // Which days does `Closed` go with: Monday only, or the whole list with its times?
      Refusal(
        text: "Closed Monday, Tuesday-Saturday 8am-10pm, Sunday 9am-3pm", position: 0,
        expected: "';' after the closed days"),
      // The closed days written first would be opened again by the later rule.
      Refusal(
        text: "Closed Mondays. Everyday 11:00 a.m. to 7:00 p.m.", position: 16,
        expected: "the closed days last"),
      // Friday closed all day, closed 16-23, or open 16-23 after a closed morning?
      Refusal(
        text: "Sa-Th 08:00-14:00; Fr off 16:00-23:00", position: 22, expected: "the times before 'off'"),
      // Alone in a rule between others, `chiuso` would close every day.
      Refusal(
        text: "Fr 10:00-19:00; Mo off; chiuso; Su[1] 15:00-19:00", position: 24,
        expected: "days or times for 'chiuso'"),
      // `Sunday Holiday`: Sunday is the day off, or holidays on a Sunday?
      Refusal(
        text: "9 to 17 hrs, Sunday Holiday", position: 20,
        expected: "',' between the weekdays and the holidays"),
      // Months or weekdays alone, beside other rules, in a loosely written value: open around the clock?
      Refusal(
        text: "April to October;Fri: 8:00 AM-1:00 PM", position: 0,
        expected: "times or a state for 'April to October'"),
      Refusal(text: "Mo-Sa; So geschlossen", position: 0, expected: "times or a state for 'Mo-Sa'"),
      // After ';' the times alone would replace every day's hours.
      Refusal(text: "Lu-Sa 09:00-12:00;14:00-18:00", position: 18, expected: "',' between the spans"),
      // am/pm on the end only: 05:30 or 17:30? Both are hours someone keeps.
      Refusal(text: "Mo 5:30-10:30PM", position: 3, expected: "am or pm on the start too"),
      Refusal(text: "Su 10:00 - 11pm", position: 3, expected: "am or pm on the start too"),
      // `T` and `S`: Tuesday or Thursday, Saturday or Sunday?
      Refusal(text: "T-F 9:00-17:00", position: 0, expected: "a weekday, a time, a date"),
      // Beside Spanish names `M` is martes (Tuesday), not Monday.
      Refusal(text: "Lunes cerrado, M-D 10:00-20:00", position: 15, expected: "a weekday, a time, a date"),
      // A letter against a number is a unit: `30m` is not Monday.
      Refusal(text: "9h-12h30m; 14h-18h30m", position: 8, expected: "';' before the next rule"),
      // 12-hour times without am/pm, or a span past midnight?
      Refusal(text: "M-F 9:00-5:00", position: 4, expected: "am or pm"),
      Refusal(text: "Mo-Fr 8:30 - 5:00", position: 6, expected: "am or pm"),
      // 12pm is noon: the span would run overnight to noon.
      Refusal(text: "Fr,Sa 3PM-12PM", position: 6, expected: "12am for midnight"),
      // From the morning or from the evening to midnight?
      Refusal(text: "10:00-midnight", position: 0, expected: "am or pm on the start"),
      // To 22:30, or overnight to 10:30?
      Refusal(text: "7 pm - 10.30", position: 0, expected: "am or pm on the end too"),
      // A degree sign after a number is a raised zero only as minutes: `20°C` is not a time.
      Refusal(text: "Mo 20°C", position: 5, expected: "':' and two digits of minutes"),
    ])
  func refused(_ r: Refusal) {
    expectRefused(r)
  }

  @Test("an ambiguous name is named in the error")
  func ambiguousNameInError() {
    do {
      _ = try OpeningHours(parsing: "Di-Sa 10:00-18:00")
      Issue.record("should not parse")
    } catch {
      #expect(error.found.contains("Tu in German"), "\(error)")
      #expect(error.found.contains("Su in French"), "\(error)")
    }
  }

  /// A comma after the weekdays, then a word that introduces the times, is the times of those
  /// days (found by the canonical-form property: `Mo-Fr` all day plus `11:30-13:00` every day
  /// was read before); the strict spelling of each is its expected reading.
  @Test(arguments: [
    ("Du lundi au vendredi, de 11h30 à 13h", "Mo-Fr 11:30-13:00"),
    ("De lunes a viernes, de 10 a 13:30 y de 17 a 20", "Mo-Fr 10:00-13:30,17:00-20:00"),
    ("Monday to Saturday, from 9:00 AM to 6:00 PM", "Mo-Sa 09:00-18:00"),
    ("Samedi, de 15h30 à 18h", "Sa 15:30-18:00"),
  ])
  func commaThenFromWordStartsTheTimes(value: String, strict: String) throws {
    let tolerated = try OpeningHours(parsing: value)
    #expect(tolerated.warnings.contains { $0.code == "comma-before-time" })
    #expect(try rulesIgnoringRanges(value) == rulesIgnoringRanges(strict))
    #expect(tolerated.normalized == strict)
  }
}
