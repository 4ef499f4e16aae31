package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StatusSnapshotTest {
    private static SpecStatus status(String spec, SpecStatus.State state, long generation) {
        return new SpecStatus("o", spec, state, List.of(), List.of(), Set.of(), 0, Optional.empty(), List.of(), Optional.empty(),
                generation, generation);
    }

    @Test
    void aPublicationSharesTheUnchangedPartAndLeavesTheEarlierSnapshotAsItWas() {
        Map<String, SpecStatus> working = new HashMap<>();
        for (int i = 0; i < 5_000; i++) {
            working.put("s" + i, status("s" + i, SpecStatus.State.APPLIED, 1));
        }
        StatusSnapshot first = StatusSnapshot.of(working);
        working.put("s7", status("s7", SpecStatus.State.PENDING, 2));
        working.remove("s8");
        working.put("new", status("new", SpecStatus.State.PENDING, 1));
        StatusSnapshot second = first.with(List.of("s7", "s8", "new", "absent"), working);

        assertThat(first).hasSize(5_000).containsKey("s8").doesNotContainKey("new");
        assertThat(first.get("s7").state()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(second).hasSize(5_000).doesNotContainKey("s8").doesNotContainKey("absent").isEqualTo(working);
        assertThat(second.get("s7").state()).isEqualTo(SpecStatus.State.PENDING);
        assertThat(second.entrySet()).hasSize(5_000);
        assertThat(second.get(null)).isNull();
    }

    @Test
    void aSnapshotIsReadOnlyAndAnApplyResultKeepsItWithoutCopying() {
        StatusSnapshot s = StatusSnapshot.of(Map.of("a", status("a", SpecStatus.State.APPLIED, 1)));
        assertThatThrownBy(() -> s.put("b", status("b", SpecStatus.State.APPLIED, 1))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.entrySet().iterator().next().setValue(null)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new ApplyResult("o", s).statuses()).isSameAs(s);
        assertThat(StatusSnapshot.EMPTY.with(List.of(), Map.of())).isEmpty();
    }

    @Test
    void aLargeOwnerGrowingByPublicationsStaysEqualToTheWorkingMap() {
        Map<String, SpecStatus> working = new HashMap<>();
        StatusSnapshot snap = StatusSnapshot.EMPTY;
        // Grows well past the smallest bucket count through partial publications, as converging
        // 40,000 specs one transaction's worth at a time does.
        for (int step = 0; step < 100; step++) {
            List<String> changed = new java.util.ArrayList<>();
            for (int i = step * 400; i < (step + 1) * 400; i++) {
                working.put("s" + i, status("s" + i, SpecStatus.State.APPLYING, 1));
                changed.add("s" + i);
            }
            if (step > 0) {
                String earlier = "s" + (step * 400 - 1);
                working.put(earlier, status(earlier, SpecStatus.State.APPLIED, 1));
                changed.add(earlier);
            }
            snap = snap.with(changed, working);
        }
        assertThat(snap).hasSize(40_000).isEqualTo(working);
        assertThat(snap.get("s399").state()).isEqualTo(SpecStatus.State.APPLIED);
        assertThat(snap.get("s39999").state()).isEqualTo(SpecStatus.State.APPLYING);
        assertThat(snap.entrySet()).hasSize(40_000);
    }

    @Test
    void publishingOneStatusOfALargeOwnerCopiesAFewHundredReferencesNotEveryBucket() {
        Map<String, SpecStatus> working = new HashMap<>();
        for (int i = 0; i < 100_000; i++) {
            working.put("s" + i, status("s" + i, SpecStatus.State.APPLIED, 1));
        }
        StatusSnapshot snap = StatusSnapshot.of(working);
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long most = 0;
        for (int k = 0; k < 2_000; k++) {
            String name = "s" + (k * 37 % 100_000);
            working.put(name, status(name, SpecStatus.State.PENDING, k + 2));
            List<String> changed = List.of(name);
            long before = threads.getThreadAllocatedBytes(id);
            StatusSnapshot next = snap.with(changed, working);
            most = Math.max(most, threads.getThreadAllocatedBytes(id) - before);
            assertThat(snap.get(name).generation()).isNotEqualTo(k + 2);
            assertThat(next.get(name).generation()).isEqualTo(k + 2);
            snap = next;
        }
        // 16,384 buckets: one flat copy of them was 64 KiB of references per publication.
        assertThat(most).isLessThan(8_192);
        assertThat(snap).hasSize(100_000).isEqualTo(working);
        working.remove("s5");
        snap = snap.with(List.of("s5"), working);
        assertThat(snap).hasSize(99_999).doesNotContainKey("s5").isEqualTo(working);
    }

    @Test
    void removalsReAddsAndRepeatsInOnePublicationKeepEveryBucketRight() {
        Map<String, SpecStatus> working = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            working.put("s" + i, status("s" + i, SpecStatus.State.APPLIED, 1));
        }
        StatusSnapshot first = StatusSnapshot.of(working);
        Map<String, SpecStatus> before = new HashMap<>(working);
        List<String> changed = new java.util.ArrayList<>();
        for (int i = 0; i < 2_000; i += 3) {
            // Removed, then named again (still absent); another removed and re-added; a third replaced twice.
            working.remove("s" + i);
            changed.add("s" + i);
            changed.add("s" + i);
            working.put("s" + (i + 1), status("s" + (i + 1), SpecStatus.State.PENDING, 2));
            changed.add("s" + (i + 1));
            changed.add("s" + (i + 1));
            working.put("n" + i, status("n" + i, SpecStatus.State.APPLYING, 1));
            changed.add("n" + i);
        }
        StatusSnapshot second = first.with(changed, working);
        assertThat(second).hasSize(working.size()).isEqualTo(working);
        assertThat(first).isEqualTo(before);
        // Everything removed comes back in the next publication, bucket arrays growing again.
        List<String> back = new java.util.ArrayList<>();
        for (int i = 0; i < 2_000; i += 3) {
            working.put("s" + i, status("s" + i, SpecStatus.State.WAITING, 3));
            back.add("s" + i);
        }
        StatusSnapshot third = second.with(back, working);
        assertThat(third).hasSize(working.size()).isEqualTo(working);
        assertThat(second).doesNotContainKey("s0");
        assertThat(third.get("s0").state()).isEqualTo(SpecStatus.State.WAITING);
        long distinct = third.entrySet().stream().map(Map.Entry::getKey).distinct().count();
        assertThat(distinct).isEqualTo(working.size());
    }
}
