//! Which slots each ring member owns: a function of the member list alone, so every
//! replica that sees the same members computes the same assignment.
//!
//! Every member gets ⌊64/n⌋ or ⌈64/n⌉ slots (balanced to one slot). Each (slot,
//! member) pair has a score, the FNV-1a hash of both: pairs are taken in order of
//! score, highest first, while the slot is free and the member has room (rendezvous
//! hashing with bounded loads). A pair's score does not depend on the other members,
//! so when one joins or leaves, most slots keep their owner. Not all: the capacities
//! shrink with each join, which pushes some slots on to their next choice. For 2 to 8
//! members a join or leave moves between 1 and 2.4 times the least any balanced
//! assignment could (the newcomer's share); the tests hold it to 2.5 times. A
//! function of the member list alone cannot promise both exact balance and the least
//! movement, and balance is what the throughput of the busiest member depends on.

use wheelhouse_cache::SlotSet;
use wheelhouse_cache::shard::{SLOTS, fnv1a64};

/// The slots of each of `members` (same order), which must be distinct.
pub(crate) fn assign(members: &[String]) -> Vec<SlotSet> {
    let count = members.len();
    let mut owned = vec![SlotSet::EMPTY; count];
    if count == 0 {
        return owned;
    }
    let slots = SLOTS as usize;
    // Members in name order get the remainder's extra slots, so the capacities too
    // depend only on the list.
    let mut by_name: Vec<usize> = (0..count).collect();
    by_name.sort_by(|&a, &b| members[a].cmp(&members[b]));
    let mut room = vec![slots / count; count];
    for &member in by_name.iter().take(slots % count) {
        room[member] += 1;
    }
    let mut pairs: Vec<(u64, u8, usize)> = Vec::with_capacity(slots * count);
    for slot in 0..64_u8 {
        for (member, name) in members.iter().enumerate() {
            pairs.push((score(name, slot), slot, member));
        }
    }
    // Highest score first; ties (vanishingly rare) broken by slot, then name.
    pairs.sort_unstable_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.cmp(&b.1))
            .then_with(|| members[a.2].cmp(&members[b.2]))
    });
    let mut taken = SlotSet::EMPTY;
    for (_, slot, member) in pairs {
        if taken.contains(slot) || room[member] == 0 {
            continue;
        }
        taken = taken.union(SlotSet::one(slot));
        owned[member] = owned[member].union(SlotSet::one(slot));
        room[member] -= 1;
    }
    owned
}

fn score(member: &str, slot: u8) -> u64 {
    let mut bytes = Vec::with_capacity(member.len() + 2);
    bytes.extend_from_slice(member.as_bytes());
    bytes.push(0);
    bytes.push(slot);
    fnv1a64(&bytes)
}

/// A fingerprint of the member list: members that publish the same one computed the
/// same assignment.
pub(crate) fn version(members: &[String]) -> String {
    let mut sorted: Vec<&str> = members.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    format!("{:016x}", fnv1a64(sorted.join("\n").as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(names: &[&str]) -> Vec<String> {
        names.iter().map(|&n| n.to_owned()).collect()
    }

    fn moved(before: &[String], after: &[String]) -> u32 {
        let (a, b) = (assign(before), assign(after));
        let owner = |sets: &[SlotSet], names: &[String], slot: u8| {
            names
                .iter()
                .zip(sets)
                .find(|(_, set)| set.contains(slot))
                .map(|(name, _)| name.clone())
        };
        (0..64_u8)
            .filter(|&slot| owner(&a, before, slot) != owner(&b, after, slot))
            .map(|_| 1)
            .sum()
    }

    #[test]
    fn every_slot_has_one_owner_and_loads_differ_by_at_most_one() {
        for n in 1..=10 {
            let names: Vec<String> = (0..n).map(|i| format!("replica-{i}")).collect();
            let sets = assign(&names);
            let mut all = SlotSet::EMPTY;
            for set in &sets {
                assert!(all.intersection(*set).is_empty(), "a slot owned twice");
                all = all.union(*set);
            }
            assert_eq!(all, SlotSet::ALL, "n={n}");
            let sizes: Vec<u32> = sets.iter().map(|s| s.len()).collect();
            let (min, max) = (sizes.iter().min(), sizes.iter().max());
            assert!(max.zip(min).is_some_and(|(max, min)| max - min <= 1), "{sizes:?}");
        }
    }

    #[test]
    fn the_assignment_depends_only_on_the_members() {
        let a = members(&["b", "a", "c"]);
        let b = members(&["c", "b", "a"]);
        let (sa, sb) = (assign(&a), assign(&b));
        for (name, set) in a.iter().zip(&sa) {
            let other = b.iter().position(|n| n == name).map(|i| sb[i]);
            assert_eq!(Some(*set), other);
        }
        assert_eq!(version(&a), version(&b));
        assert_ne!(version(&a), version(&members(&["a", "b"])));
    }

    #[test]
    fn a_join_or_leave_moves_few_slots() {
        // The least any balanced assignment can move is the newcomer's share; the
        // balancing moves some more (see the module's comment).
        for n in 2..=8_u32 {
            let before: Vec<String> = (0..n).map(|i| format!("pod-{i}")).collect();
            let mut after = before.clone();
            after.push(format!("pod-{n}"));
            let least = 64 / (n + 1);
            let join = moved(&before, &after);
            assert!(
                join <= least * 5 / 2 + 1,
                "join {n}->{}: {join} moved, least {least}",
                n + 1
            );
            let leave = moved(&after, &before);
            assert_eq!(join, leave);
        }
    }
}
