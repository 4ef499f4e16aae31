package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The elements of a received JSON array: the list behind every {@code ArrayNode} the decoder
 * builds. Most OVSDB arrays are pairs ({@code ["uuid", "..."]}, {@code ["map", [...]]},
 * {@code [key, value]}), so the first two elements are fields of the list and only longer arrays
 * get an array for the rest: a pair costs one 32-byte object instead of an {@code ArrayList} and
 * its array (48 bytes, two allocations), and a long array is not copied at every 1.5x growth
 * from two.
 */
final class Elements extends AbstractList<JsonNode> implements RandomAccess {
    private JsonNode first;
    private JsonNode second;
    // Elements from the third on; null while there are at most two.
    private JsonNode[] rest;
    private int size;

    @Override
    public int size() {
        return size;
    }

    @Override
    public JsonNode get(int index) {
        Objects.checkIndex(index, size);
        return switch (index) {
            case 0 -> first;
            case 1 -> second;
            default -> rest[index - 2];
        };
    }

    @Override
    public JsonNode set(int index, JsonNode element) {
        JsonNode old = get(index);
        put(index, element);
        return old;
    }

    private void put(int index, JsonNode element) {
        switch (index) {
            case 0 -> first = element;
            case 1 -> second = element;
            default -> rest[index - 2] = element;
        }
    }

    @Override
    public boolean add(JsonNode element) {
        if (size >= 2) {
            if (rest == null) {
                rest = new JsonNode[4];
            } else if (size - 2 == rest.length) {
                rest = Arrays.copyOf(rest, rest.length * 2);
            }
        }
        size++;
        put(size - 1, element);
        modCount++;
        return true;
    }

    @Override
    public void add(int index, JsonNode element) {
        Objects.checkIndex(index, size + 1);
        add(null);
        for (int i = size - 1; i > index; i--) {
            put(i, get(i - 1));
        }
        put(index, element);
    }

    @Override
    public JsonNode remove(int index) {
        JsonNode old = get(index);
        for (int i = index; i < size - 1; i++) {
            put(i, get(i + 1));
        }
        put(size - 1, null);
        size--;
        modCount++;
        return old;
    }

    @Override
    public void clear() {
        first = null;
        second = null;
        rest = null;
        size = 0;
        modCount++;
    }
}
