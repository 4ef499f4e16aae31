package dev.ovnj.ovsdb.cache;

import dev.ovnj.ovsdb.data.Row;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One table's rows by UUID, keyed by each row's own {@link Row#uuid()}: an open-addressing array
 * of row references, one slot per row and no node or key object per entry (a
 * {@link java.util.concurrent.ConcurrentHashMap} spends a 32-byte node and a table slot per row on
 * top of the row).
 *
 * <p>One writer at a time (the cache's write lock); {@link #get} and {@link #size} never block and
 * may run alongside the writer. A reader sees each row as it was before or after a concurrent
 * change, never a half-built row: slots are written with release and read with acquire semantics,
 * a grown array is published whole, and a removed row leaves a marker that keeps later rows of
 * its probe sequence reachable.
 */
final class RowTable {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final Object REMOVED = new Object();
    private static final int MIN_CAPACITY = 16;

    // Slots: null (never used), REMOVED, or a Row. Replaced whole when the table grows or shrinks.
    private volatile Object[] slots = new Object[MIN_CAPACITY];
    private volatile int live;
    // Non-null slots, REMOVED ones included; only the writer reads it.
    private int used;

    /** Creates an empty table. */
    RowTable() {
    }

    /**
     * The row with this UUID.
     *
     * @param uuid the row's UUID
     * @return the row, or null
     */
    Row get(UUID uuid) {
        Object[] t = slots;
        int n = t.length;
        for (int i = slotOf(uuid, n); ; i = i + 1 == n ? 0 : i + 1) {
            Object o = SLOTS.getAcquire(t, i);
            if (o == null) {
                return null;
            }
            if (o != REMOVED && uuid.equals(((Row) o).uuid())) {
                return (Row) o;
            }
        }
    }

    /** The number of rows. */
    int size() {
        return live;
    }

    /**
     * Adds a row, or replaces the row with its UUID.
     *
     * @param row the row
     * @return the row it replaced, or null
     */
    Row put(Row row) {
        UUID uuid = row.uuid();
        Object[] t = slots;
        int n = t.length;
        int free = -1;
        int i = slotOf(uuid, n);
        for (Object o; (o = t[i]) != null; i = i + 1 == n ? 0 : i + 1) {
            if (o == REMOVED) {
                if (free < 0) {
                    free = i;
                }
            } else if (uuid.equals(((Row) o).uuid())) {
                SLOTS.setRelease(t, i, row);
                return (Row) o;
            }
        }
        if (free < 0) {
            if ((used + 1) * 4L > n * 3L) {
                // Grown to twice the rows, so a table is half to three quarters full.
                resize(live + 1);
                return put(row);
            }
            free = i;
            used++;
        }
        SLOTS.setRelease(t, free, row);
        live++;
        return null;
    }

    /**
     * Removes the row with this UUID.
     *
     * @param uuid the row's UUID
     * @return the removed row, or null
     */
    Row remove(UUID uuid) {
        Object[] t = slots;
        int n = t.length;
        for (int i = slotOf(uuid, n); t[i] != null; i = i + 1 == n ? 0 : i + 1) {
            Object o = t[i];
            if (o != REMOVED && uuid.equals(((Row) o).uuid())) {
                SLOTS.setRelease(t, i, REMOVED);
                live--;
                if (live * 8L < n && n > MIN_CAPACITY) {
                    resize(live);
                }
                return (Row) o;
            }
        }
        return null;
    }

    /**
     * A copy of every row, in no particular order; the caller keeps the writer out.
     *
     * @return the rows
     */
    List<Row> values() {
        Object[] t = slots;
        List<Row> out = new ArrayList<>(live);
        for (Object o : t) {
            if (o != null && o != REMOVED) {
                out.add((Row) o);
            }
        }
        return out;
    }

    /** Rebuilds the table for {@code rows} rows, dropping removed markers, and publishes it whole. */
    private void resize(int rows) {
        int capacity = Math.max(MIN_CAPACITY, rows * 2);
        Object[] old = slots;
        Object[] fresh = new Object[capacity];
        for (Object o : old) {
            if (o != null && o != REMOVED) {
                int i = slotOf(((Row) o).uuid(), capacity);
                while (fresh[i] != null) {
                    i = i + 1 == capacity ? 0 : i + 1;
                }
                fresh[i] = o;
            }
        }
        used = live;
        slots = fresh;
    }

    /**
     * The first slot for a UUID in a table of {@code n} slots: the UUID's hash spread over all 32
     * bits, then scaled to {@code n} (any size, not only powers of two, so the table can be sized
     * to its rows).
     */
    private static int slotOf(UUID uuid, int n) {
        int h = uuid.hashCode() * 0x9E3779B9;
        return (int) (((h & 0xFFFF_FFFFL) * n) >>> 32);
    }
}
