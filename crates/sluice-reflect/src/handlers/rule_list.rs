//! The ordered rule list both tables keep: rules sorted by priority (higher first, equals in
//! the order they were added), found and removed by name.

/// What the list needs to know of a rule.
pub(crate) trait Ranked {
    fn name(&self) -> &str;
    fn priority(&self) -> i32;
}

/// Rules in the order they are tried.
#[derive(Clone)]
pub(crate) struct RuleList<R> {
    rules: Vec<R>,
}

impl<R: Ranked> RuleList<R> {
    pub(crate) fn new() -> RuleList<R> {
        RuleList { rules: Vec::new() }
    }

    /// Inserts `rule` after every rule of its priority or higher.
    pub(crate) fn insert(&mut self, rule: R) {
        let at = self
            .rules
            .iter()
            .position(|other| other.priority() < rule.priority())
            .unwrap_or(self.rules.len());
        self.rules.insert(at, rule);
    }

    /// A priority above every rule's (0 for an empty list).
    pub(crate) fn priority_before_all(&self) -> i32 {
        self.rules
            .first()
            .map_or(0, |rule| rule.priority().saturating_add(1))
    }

    /// A priority below every rule's (0 for an empty list).
    pub(crate) fn priority_after_all(&self) -> i32 {
        self.rules
            .last()
            .map_or(0, |rule| rule.priority().saturating_sub(1))
    }

    /// Removes the rules named `name`; whether there was one.
    pub(crate) fn remove(&mut self, name: &str) -> bool {
        let before = self.rules.len();
        self.rules.retain(|rule| rule.name() != name);
        self.rules.len() != before
    }

    /// The rules named `name`.
    pub(crate) fn named_mut<'a>(&'a mut self, name: &'a str) -> impl Iterator<Item = &'a mut R> {
        self.rules
            .iter_mut()
            .filter(move |rule| rule.name() == name)
    }

    /// The rule names, in order.
    pub(crate) fn names(&self) -> Vec<&str> {
        self.rules.iter().map(Ranked::name).collect()
    }

    /// The rule names with their priorities, in order.
    pub(crate) fn ranked(&self) -> Vec<(&str, i32)> {
        self.rules
            .iter()
            .map(|rule| (rule.name(), rule.priority()))
            .collect()
    }

    /// The rules, in order.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, R> {
        self.rules.iter()
    }
}

impl<'a, R> IntoIterator for &'a RuleList<R> {
    type Item = &'a R;
    type IntoIter = std::slice::Iter<'a, R>;

    fn into_iter(self) -> Self::IntoIter {
        self.rules.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Named(&'static str, i32);

    impl Ranked for Named {
        fn name(&self) -> &str {
            self.0
        }
        fn priority(&self) -> i32 {
            self.1
        }
    }

    #[test]
    fn rules_are_ordered_by_priority_then_by_insertion() {
        let mut list = RuleList::new();
        list.insert(Named("low", 10));
        list.insert(Named("high", 50));
        list.insert(Named("low-too", 10));
        list.insert(Named("first", list.priority_before_all()));
        list.insert(Named("last", list.priority_after_all()));
        assert_eq!(
            list.ranked(),
            [
                ("first", 51),
                ("high", 50),
                ("low", 10),
                ("low-too", 10),
                ("last", 9)
            ]
        );
    }

    #[test]
    fn removing_by_name_takes_every_rule_of_that_name() {
        let mut list = RuleList::new();
        list.insert(Named("a", 1));
        list.insert(Named("b", 2));
        list.insert(Named("a", 3));
        assert!(list.remove("a"));
        assert!(!list.remove("a"));
        assert_eq!(list.names(), ["b"]);
        assert_eq!(list.named_mut("b").count(), 1);
    }

    #[test]
    fn an_empty_list_starts_at_priority_zero() {
        let list: RuleList<Named> = RuleList::new();
        assert_eq!(
            (list.priority_before_all(), list.priority_after_all()),
            (0, 0)
        );
    }
}
