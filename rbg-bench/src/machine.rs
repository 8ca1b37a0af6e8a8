//! What the figures were measured on: the number of cores this process may use, the CPU model
//! (from `/proc/cpuinfo` where it is readable) and the date, written into the Markdown page so
//! that it says what was measured rather than what a machine usually is.

use std::path::PathBuf;
use std::time::SystemTime;

/// The machine a run measures on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// `std::thread::available_parallelism` (None when the system does not say).
    pub cores: Option<usize>,
    /// The first `model name` of `/proc/cpuinfo` (None elsewhere or when unreadable).
    pub cpu_model: Option<String>,
    /// The day of the run, `YYYY-MM-DD` (UTC).
    pub date: String,
}

impl Machine {
    /// This machine, today.
    pub fn this_one() -> Machine {
        Machine {
            cores: std::thread::available_parallelism().ok().map(usize::from),
            cpu_model: std::fs::read_to_string("/proc/cpuinfo").ok().as_deref().and_then(cpu_model),
            date: today(),
        }
    }

    /// A sentence for the page: "Measured on 2026-11-26 with 2 cores (Model X)."
    pub fn sentence(&self) -> String {
        let cores = match self.cores {
            Some(1) => "1 core".to_string(),
            Some(n) => format!("{n} cores"),
            None => "an unknown number of cores".to_string(),
        };
        let model = self.cpu_model.as_deref().unwrap_or("CPU model not known");
        format!("Measured on {} with {cores} available ({model}).", self.date)
    }
}

/// Where a page's figures come from.
#[derive(Clone, Debug)]
pub enum Provenance {
    /// Measured by this run on this machine.
    Measured(Machine),
    /// Read from an earlier run's CSV, which does not record the machine.
    FromCsv(PathBuf),
}

impl Provenance {
    /// The page's sentence about where its figures come from.
    pub fn sentence(&self) -> String {
        match self {
            Provenance::Measured(machine) => machine.sentence(),
            Provenance::FromCsv(path) => format!(
                "Figures read from an earlier run's CSV ({}), which does not record the machine; written on {}.",
                path.display(),
                today()
            ),
        }
    }
}

/// The first `model name` of a `/proc/cpuinfo` text.
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = value.trim();
        (key.trim() == "model name" && !value.is_empty()).then(|| value.to_string())
    })
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let seconds = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date(i64::try_from(seconds / 86_400).unwrap_or(0));
    format!("{year:04}-{month:02}-{day:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01: the days are split into
/// 400-year eras of 146,097 days starting on 1 March, so that the leap day ends a year.
pub fn civil_date(days_since_epoch: i64) -> (i64, u32, u32) {
    // Shift the origin to 0000-03-01: 719,468 days before 1970-01-01.
    let days = days_since_epoch + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months counted from March, each run of five months 153 days long.
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, u32::try_from(month).unwrap_or(1), u32::try_from(day).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Days from 1970-01-01 counted by walking the calendar month by month (an independent
    /// derivation of the dates `civil_date` computes in closed form).
    fn walk(mut days: i64) -> (i64, u32, u32) {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let mut year = 1970;
        let mut month = 1u32;
        loop {
            let length = match month {
                2 if leap(year) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            if days < length {
                return (year, month, u32::try_from(days).unwrap() + 1);
            }
            days -= length;
            month += 1;
            if month == 13 {
                (year, month) = (year + 1, 1);
            }
        }
    }

    #[test]
    fn dates_agree_with_a_walk_over_the_calendar() {
        // Every day from 1970 to past 2100 (a century year that is not a leap year).
        for days in 0..48_000 {
            assert_eq!(civil_date(days), walk(days), "day {days}");
        }
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }

    #[test]
    fn the_cpu_model_is_the_first_model_name() {
        let text = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nprocessor\t: 1\nmodel name\t: Other\n";
        assert_eq!(cpu_model(text).as_deref(), Some("Intel(R) Xeon(R) CPU @ 2.20GHz"));
        assert_eq!(cpu_model("processor : 0\nHardware : BCM2835\n"), None);
        assert_eq!(cpu_model("model name :   \n"), None);
    }

    #[test]
    fn the_sentence_says_what_was_measured() {
        let machine = Machine { cores: Some(8), cpu_model: Some("Chip Z".into()), date: "2026-11-27".into() };
        assert_eq!(machine.sentence(), "Measured on 2026-11-27 with 8 cores available (Chip Z).");
        let unknown = Machine { cores: Some(1), cpu_model: None, date: "2026-11-27".into() };
        assert_eq!(unknown.sentence(), "Measured on 2026-11-27 with 1 core available (CPU model not known).");
    }
}
