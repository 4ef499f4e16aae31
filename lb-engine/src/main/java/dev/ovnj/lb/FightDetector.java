package dev.ovnj.lb;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Tells a fight from drift. A garbage collector deletes rows; another writer of the same owner
 * (a second engine without the owner lock, or one whose lock lives on another relay) changes them
 * back to its own version while they still carry the owner's name. Each repair of a row that was
 * changed rather than deleted is counted per spec; {@link #FIGHT_REPAIRS} of them within
 * {@link #WINDOW_NANOS} is a fight, which the engine reports and backs off from instead of
 * answering write for write. Engine thread only.
 */
final class FightDetector {
    /** Repairs of changed (not deleted) rows of one spec, within the window, that make a fight. */
    static final int FIGHT_REPAIRS = 5;
    static final long WINDOW_NANOS = 10_000_000_000L;

    private final Map<SpecKey, ArrayDeque<Long>> repairs = new HashMap<>();

    /**
     * Counts a repair of a spec whose rows someone changed (not deleted).
     *
     * @return true when this repair makes it a fight (the count starts over)
     */
    boolean changedBack(SpecKey key, long now) {
        ArrayDeque<Long> times = repairs.computeIfAbsent(key, k -> new ArrayDeque<>());
        times.addLast(now);
        while (!times.isEmpty() && now - times.peekFirst() > WINDOW_NANOS) {
            times.removeFirst();
        }
        if (times.size() >= FIGHT_REPAIRS) {
            repairs.remove(key);
            return true;
        }
        return false;
    }

    /** The spec was re-declared or removed: its history no longer says anything. */
    void forget(SpecKey key) {
        repairs.remove(key);
    }
}
