package dev.ovnj.ovsdb.data;

import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An immutable hash set whose {@link #plus} and {@link #minus} share structure with the original
 * (a hash array mapped trie), so that a monitor update adding one load balancer to a router's
 * 10,000-element {@code load_balancer} set copies a few small arrays instead of the whole set.
 * Large set columns are kept in this form by {@link Row#applyDiff}; it behaves as any
 * {@link java.util.Set} (equality and hash code follow the {@code Set} contract) and rejects
 * mutation.
 *
 * @param <E> element type; elements are non-null
 */
public final class PersistentSet<E> extends AbstractSet<E> {
    private static final int BITS = 5;
    private static final int MASK = (1 << BITS) - 1;
    private static final PersistentSet<Object> EMPTY = new PersistentSet<>(new Node(0, new Object[0]), 0);

    private final Node root;
    private final int size;

    private PersistentSet(Node root, int size) {
        this.root = root;
        this.size = size;
    }

    /**
     * The empty set.
     *
     * @param <E> element type
     * @return the empty set
     */
    @SuppressWarnings("unchecked")
    public static <E> PersistentSet<E> empty() {
        return (PersistentSet<E>) EMPTY;
    }

    /**
     * A set of the given elements.
     *
     * @param elements non-null elements; duplicates are ignored
     * @param <E> element type
     * @return the set
     */
    public static <E> PersistentSet<E> copyOf(Collection<? extends E> elements) {
        if (elements instanceof PersistentSet<?>) {
            @SuppressWarnings("unchecked")
            PersistentSet<E> same = (PersistentSet<E>) elements;
            return same;
        }
        PersistentSet<E> out = empty();
        for (E e : elements) {
            out = out.plus(e);
        }
        return out;
    }

    /**
     * This set with {@code element} added.
     *
     * @param element a non-null element
     * @return a new set, or this one when the element was present
     */
    public PersistentSet<E> plus(E element) {
        Objects.requireNonNull(element, "element");
        Node n = root.plus(element, element.hashCode(), 0);
        return n == root ? this : new PersistentSet<>(n, size + 1);
    }

    /**
     * This set without {@code element}.
     *
     * @param element the element
     * @return a new set, or this one when the element was absent
     */
    public PersistentSet<E> minus(Object element) {
        if (element == null) {
            return this;
        }
        Node n = root.minus(element, element.hashCode(), 0);
        return n == root ? this : new PersistentSet<>(n, size - 1);
    }

    /**
     * Calls {@code sink} with every element in exactly one of the two sets. Sets derived from one
     * another by {@link #plus} and {@link #minus} share their unchanged subtrees, which are skipped
     * by identity: one element added to a 10,000-element set costs a walk down one path, not a
     * scan of both sets.
     *
     * @param a one set
     * @param b the other
     * @param sink receives each element of the symmetric difference once
     * @param <E> element type
     */
    public static <E> void difference(PersistentSet<? extends E> a, PersistentSet<? extends E> b, Consumer<? super E> sink) {
        @SuppressWarnings("unchecked")
        Consumer<Object> out = (Consumer<Object>) sink;
        difference(a.root, b.root, 0, out);
    }

    private static void difference(Node x, Node y, int shift, Consumer<Object> out) {
        if (x == y) {
            return;
        }
        if (Node.collisionLevel(shift)) {
            for (Object e : x.slots) {
                if (!y.contains(e, e.hashCode(), shift)) {
                    out.accept(e);
                }
            }
            for (Object e : y.slots) {
                if (!x.contains(e, e.hashCode(), shift)) {
                    out.accept(e);
                }
            }
            return;
        }
        int bits = x.bitmap | y.bitmap;
        while (bits != 0) {
            int bit = Integer.lowestOneBit(bits);
            bits &= ~bit;
            Object sx = (x.bitmap & bit) == 0 ? null : x.slots[Integer.bitCount(x.bitmap & (bit - 1))];
            Object sy = (y.bitmap & bit) == 0 ? null : y.slots[Integer.bitCount(y.bitmap & (bit - 1))];
            if (sx == sy) {
                continue;
            }
            if (sx == null || sy == null) {
                all(sx == null ? sy : sx, out);
            } else if (sx instanceof Node nx && sy instanceof Node ny) {
                difference(nx, ny, shift + BITS, out);
            } else if (sx instanceof Node nx) {
                oneAgainst(nx, sy, out);
            } else if (sy instanceof Node ny) {
                oneAgainst(ny, sx, out);
            } else if (!sx.equals(sy)) {
                out.accept(sx);
                out.accept(sy);
            }
        }
    }

    /** A subtree against a single element in the same position: all but the element, or all and the element. */
    private static void oneAgainst(Node n, Object e, Consumer<Object> out) {
        boolean[] found = new boolean[1];
        all(n, x -> {
            if (x.equals(e)) {
                found[0] = true;
            } else {
                out.accept(x);
            }
        });
        if (!found[0]) {
            out.accept(e);
        }
    }

    private static void all(Object slot, Consumer<Object> out) {
        if (slot instanceof Node n) {
            for (Object s : n.slots) {
                all(s, out);
            }
        } else {
            out.accept(slot);
        }
    }

    @Override
    public boolean contains(Object o) {
        return o != null && root.contains(o, o.hashCode(), 0);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Iterator<E> iterator() {
        return new Iterator<>() {
            private final Deque<Object[]> arrays = new ArrayDeque<>();
            private final Deque<Integer> positions = new ArrayDeque<>();
            private Object next;

            {
                arrays.push(root.slots);
                positions.push(0);
                advance();
            }

            private void advance() {
                next = null;
                while (!arrays.isEmpty()) {
                    Object[] a = arrays.peek();
                    int i = positions.pop();
                    if (i >= a.length) {
                        arrays.pop();
                        continue;
                    }
                    positions.push(i + 1);
                    Object slot = a[i];
                    if (slot instanceof Node child) {
                        arrays.push(child.slots);
                        positions.push(0);
                    } else {
                        next = slot;
                        return;
                    }
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            @SuppressWarnings("unchecked")
            public E next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Object out = next;
                advance();
                return (E) out;
            }
        };
    }

    /**
     * One trie level: a bitmap of occupied positions and, densely, their elements or children.
     * Below the last level (all 32 hash bits used) a node holds colliding elements in a plain array.
     */
    private static final class Node {
        private final int bitmap;
        private final Object[] slots;

        Node(int bitmap, Object[] slots) {
            this.bitmap = bitmap;
            this.slots = slots;
        }

        private static boolean collisionLevel(int shift) {
            return shift >= 32;
        }

        boolean contains(Object e, int hash, int shift) {
            if (collisionLevel(shift)) {
                for (Object s : slots) {
                    if (s.equals(e)) {
                        return true;
                    }
                }
                return false;
            }
            int bit = 1 << ((hash >>> shift) & MASK);
            if ((bitmap & bit) == 0) {
                return false;
            }
            Object slot = slots[Integer.bitCount(bitmap & (bit - 1))];
            return slot instanceof Node child ? child.contains(e, hash, shift + BITS) : slot.equals(e);
        }

        Node plus(Object e, int hash, int shift) {
            if (collisionLevel(shift)) {
                if (contains(e, hash, shift)) {
                    return this;
                }
                Object[] grown = Arrays.copyOf(slots, slots.length + 1);
                grown[slots.length] = e;
                return new Node(0, grown);
            }
            int bit = 1 << ((hash >>> shift) & MASK);
            int index = Integer.bitCount(bitmap & (bit - 1));
            if ((bitmap & bit) == 0) {
                Object[] grown = new Object[slots.length + 1];
                System.arraycopy(slots, 0, grown, 0, index);
                grown[index] = e;
                System.arraycopy(slots, index, grown, index + 1, slots.length - index);
                return new Node(bitmap | bit, grown);
            }
            Object slot = slots[index];
            Node child;
            if (slot instanceof Node n) {
                child = n.plus(e, hash, shift + BITS);
                if (child == n) {
                    return this;
                }
            } else {
                if (slot.equals(e)) {
                    return this;
                }
                child = pair(slot, slot.hashCode(), e, hash, shift + BITS);
            }
            Object[] copy = slots.clone();
            copy[index] = child;
            return new Node(bitmap, copy);
        }

        private static Node pair(Object a, int hashA, Object b, int hashB, int shift) {
            if (collisionLevel(shift)) {
                return new Node(0, new Object[] {a, b});
            }
            int ia = (hashA >>> shift) & MASK;
            int ib = (hashB >>> shift) & MASK;
            if (ia == ib) {
                return new Node(1 << ia, new Object[] {pair(a, hashA, b, hashB, shift + BITS)});
            }
            return new Node((1 << ia) | (1 << ib), ia < ib ? new Object[] {a, b} : new Object[] {b, a});
        }

        Node minus(Object e, int hash, int shift) {
            if (collisionLevel(shift)) {
                for (int i = 0; i < slots.length; i++) {
                    if (slots[i].equals(e)) {
                        Object[] shrunk = new Object[slots.length - 1];
                        System.arraycopy(slots, 0, shrunk, 0, i);
                        System.arraycopy(slots, i + 1, shrunk, i, slots.length - i - 1);
                        return new Node(0, shrunk);
                    }
                }
                return this;
            }
            int bit = 1 << ((hash >>> shift) & MASK);
            if ((bitmap & bit) == 0) {
                return this;
            }
            int index = Integer.bitCount(bitmap & (bit - 1));
            Object slot = slots[index];
            if (slot instanceof Node n) {
                Node child = n.minus(e, hash, shift + BITS);
                if (child == n) {
                    return this;
                }
                Object[] copy = slots.clone();
                if (child.slots.length == 0) {
                    return without(index, bit);
                }
                // A child left with one element collapses back into this level.
                copy[index] = child.slots.length == 1 && !(child.slots[0] instanceof Node) ? child.slots[0] : child;
                return new Node(bitmap, copy);
            }
            return slot.equals(e) ? without(index, bit) : this;
        }

        private Node without(int index, int bit) {
            Object[] shrunk = new Object[slots.length - 1];
            System.arraycopy(slots, 0, shrunk, 0, index);
            System.arraycopy(slots, index + 1, shrunk, index, slots.length - index - 1);
            return new Node(bitmap & ~bit, shrunk);
        }
    }
}
