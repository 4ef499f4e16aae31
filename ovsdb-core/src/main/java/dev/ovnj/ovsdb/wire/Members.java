package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The members of a received JSON object in the order they arrived: the map behind every
 * {@code ObjectNode} the decoder builds. A monitor reply holds an object per row and per row
 * update; a {@code LinkedHashMap} gave each member a 40-byte entry and each object a hash table,
 * about a third of what decoding a reply allocated. Here a member is one 24-byte entry in an array,
 * looked up by a linear scan while the object is small (row objects have a few columns) and
 * through an open-addressing table of positions once it is large (a table's rows keyed by UUID).
 * Behaves as a {@code LinkedHashMap}: a repeated key keeps its first position.
 */
final class Members extends AbstractMap<String, JsonNode> {
    /** Objects with more members than this get a hash index. */
    private static final int SCAN_MAX = 8;

    private Member[] members;
    private int size;
    // Open addressing over positions + 1 (0 = empty slot); null while the object is small.
    private int[] index;
    private int modCount;

    /**
     * Creates an empty object.
     *
     * @param capacity members expected
     */
    Members(int capacity) {
        members = new Member[Math.max(capacity, 1)];
    }

    /** A member; its value may be replaced, as {@code ObjectNode} does through entries. */
    private static final class Member implements Map.Entry<String, JsonNode> {
        private final String key;
        private JsonNode value;

        Member(String key, JsonNode value) {
            this.key = key;
            this.value = value;
        }

        @Override
        public String getKey() {
            return key;
        }

        @Override
        public JsonNode getValue() {
            return value;
        }

        @Override
        public JsonNode setValue(JsonNode newValue) {
            JsonNode old = value;
            value = newValue;
            return old;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Map.Entry<?, ?> e && key.equals(e.getKey()) && Objects.equals(value, e.getValue());
        }

        @Override
        public int hashCode() {
            return key.hashCode() ^ Objects.hashCode(value);
        }

        @Override
        public String toString() {
            return key + "=" + value;
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    /** The position of {@code key}, or -1. */
    private int find(Object key) {
        if (!(key instanceof String)) {
            return -1;
        }
        if (index == null) {
            for (int i = 0; i < size; i++) {
                if (members[i].key.equals(key)) {
                    return i;
                }
            }
            return -1;
        }
        int mask = index.length - 1;
        for (int slot = spread(key.hashCode()) & mask; ; slot = (slot + 1) & mask) {
            int at = index[slot];
            if (at == 0) {
                return -1;
            }
            if (members[at - 1].key.equals(key)) {
                return at - 1;
            }
        }
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) >= 0;
    }

    @Override
    public JsonNode get(Object key) {
        int at = find(key);
        return at < 0 ? null : members[at].value;
    }

    @Override
    public JsonNode put(String key, JsonNode value) {
        Objects.requireNonNull(key, "key");
        int at = find(key);
        if (at >= 0) {
            return members[at].setValue(value);
        }
        if (size == members.length) {
            members = Arrays.copyOf(members, size * 2);
        }
        members[size++] = new Member(key, value);
        modCount++;
        if (index != null && size * 2 > index.length) {
            reindex();
        } else if (index != null) {
            insert(size - 1);
        } else if (size > SCAN_MAX) {
            reindex();
        }
        return null;
    }

    private void reindex() {
        index = new int[Integer.highestOneBit(size * 4 - 1)];
        for (int i = 0; i < size; i++) {
            insert(i);
        }
    }

    private void insert(int position) {
        int mask = index.length - 1;
        int slot = spread(members[position].key.hashCode()) & mask;
        while (index[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        index[slot] = position + 1;
    }

    @Override
    public JsonNode remove(Object key) {
        int at = find(key);
        if (at < 0) {
            return null;
        }
        JsonNode old = members[at].value;
        removeAt(at);
        return old;
    }

    private void removeAt(int at) {
        System.arraycopy(members, at + 1, members, at, size - at - 1);
        members[--size] = null;
        modCount++;
        if (index != null) {
            // Positions after the removed member moved; removal is rare (tests, hand-built requests).
            if (size > SCAN_MAX) {
                reindex();
            } else {
                index = null;
            }
        }
    }

    @Override
    public void clear() {
        Arrays.fill(members, 0, size, null);
        size = 0;
        index = null;
        modCount++;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Map.Entry<String, JsonNode>> iterator() {
                return new Iterator<>() {
                    private int next;
                    private int last = -1;
                    private int expected = modCount;

                    @Override
                    public boolean hasNext() {
                        return next < size;
                    }

                    @Override
                    public Map.Entry<String, JsonNode> next() {
                        if (expected != modCount) {
                            throw new ConcurrentModificationException();
                        }
                        if (next >= size) {
                            throw new NoSuchElementException();
                        }
                        last = next++;
                        return members[last];
                    }

                    @Override
                    public void remove() {
                        if (last < 0) {
                            throw new IllegalStateException();
                        }
                        if (expected != modCount) {
                            throw new ConcurrentModificationException();
                        }
                        removeAt(last);
                        next = last;
                        last = -1;
                        expected = modCount;
                    }
                };
            }
        };
    }
}
