package dev.ovnj.ovsdb.data;

import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
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
    /** Deltas smaller than this are toggled one element at a time. */
    private static final int BULK_TOGGLE_MIN = 8;
    private static final Node EMPTY_NODE = new Node(0, new Object[0]);
    private static final PersistentSet<Object> EMPTY = new PersistentSet<>(EMPTY_NODE, 0);

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
        if (elements instanceof Set<? extends E> distinct) {
            return PersistentSet.<E>empty().toggled(distinct);
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
     * This set with every element of {@code delta} toggled: removed where present, added where
     * absent, which is how an OVSDB {@code update2} "modify" changes a set column. Every trie node
     * on the way to a toggled element is copied once for the whole delta instead of once per
     * element: a transaction attaching 500 load balancers to a router's 10,000-element set copies
     * the root once, not 500 times, and a delta removing every element builds nothing.
     *
     * @param delta distinct non-null elements
     * @return the new set, or this one when {@code delta} is empty
     */
    public PersistentSet<E> toggled(Set<? extends E> delta) {
        int k = delta.size();
        if (k < BULK_TOGGLE_MIN) {
            // A change of a few elements (an incremental upsert's one load balancer): one toggle at
            // a time copies no more, without the walk's sorting arrays.
            PersistentSet<E> out = this;
            for (E e : delta) {
                out = out.contains(e) ? out.minus(e) : out.plus(e);
            }
            return out;
        }
        Object[] elements = new Object[k];
        int[] hashes = new int[k];
        int i = 0;
        for (E e : delta) {
            elements[i] = Objects.requireNonNull(e, "element");
            hashes[i] = e.hashCode();
            i++;
        }
        Toggles t = new Toggles(elements, hashes);
        Node n = t.apply(root, 0, k, 0);
        return n == root ? this : new PersistentSet<>(n, size + t.sizeChange);
    }

    @Override
    public boolean contains(Object o) {
        return o != null && root.contains(o, o.hashCode(), 0);
    }

    /**
     * Whether an element with this hash code is in the set, found along the trie (O(log n)): a
     * hash-keyed index uses it to tell whether a removed key's hash is still held by another key.
     *
     * @param hashCode an element's {@code hashCode()}
     * @return whether some element has it
     */
    public boolean containsHashCode(int hashCode) {
        return root.containsHash(hashCode, 0);
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
     * Reports the elements in which two sets differ. Two persistent sets are compared along their
     * tries, skipping every subtree they share, so a set and its successor after a few
     * {@link #plus}/{@link #minus} calls cost about as much as those calls, not as the sets' size
     * (a 100,000-element {@code load_balancer} column changed by one transaction's rows); other
     * sets are compared element by element.
     *
     * @param before the earlier set
     * @param after the later set
     * @param removed receives each element of {@code before} not in {@code after}
     * @param added receives each element of {@code after} not in {@code before}
     * @param <E> element type
     */
    public static <E> void diff(Set<? extends E> before, Set<? extends E> after, Consumer<? super E> removed,
                                Consumer<? super E> added) {
        if (before instanceof PersistentSet<?> a && after instanceof PersistentSet<?> b) {
            @SuppressWarnings("unchecked")
            Consumer<Object> r = (Consumer<Object>) removed;
            @SuppressWarnings("unchecked")
            Consumer<Object> ad = (Consumer<Object>) added;
            Node.diff(a.root, b.root, 0, r, ad);
            return;
        }
        for (E e : before) {
            if (!after.contains(e)) {
                removed.accept(e);
            }
        }
        for (E e : after) {
            if (!before.contains(e)) {
                added.accept(e);
            }
        }
    }

    /**
     * One {@link #toggled} call: the delta's elements and hashes, sorted in place level by level
     * into the trie's 32 positions, and the size change so far.
     */
    private static final class Toggles {
        private final Object[] elements;
        private final int[] hashes;
        private int sizeChange;

        Toggles(Object[] elements, int[] hashes) {
            this.elements = elements;
            this.hashes = hashes;
        }

        /** Node {@code n} at level {@code shift} with the toggles in {@code [from, to)} applied. */
        Node apply(Node n, int from, int to, int shift) {
            if (Node.collisionLevel(shift)) {
                // Elements here share their whole hash: few, so one toggle at a time.
                Node out = n;
                for (int i = from; i < to; i++) {
                    Object e = elements[i];
                    Node next = out.contains(e, hashes[i], shift) ? out.minus(e, hashes[i], shift) : out.plus(e, hashes[i], shift);
                    sizeChange += next.slots.length - out.slots.length;
                    out = next;
                }
                return out;
            }
            int[] starts = sortByPosition(from, to, shift);
            Object[] slots = new Object[Integer.bitCount(n.bitmap | bucketsBitmap(starts))];
            int bitmap = 0;
            int count = 0;
            boolean changed = false;
            for (int position = 0; position <= MASK; position++) {
                int bit = 1 << position;
                Object old = (n.bitmap & bit) == 0 ? null : n.slots[Integer.bitCount(n.bitmap & (bit - 1))];
                int b0 = starts[position];
                int b1 = starts[position + 1];
                Object slot = b0 == b1 ? old : slot(old, b0, b1, shift + BITS);
                changed |= slot != old;
                if (slot != null) {
                    bitmap |= bit;
                    slots[count++] = slot;
                }
            }
            return changed ? new Node(bitmap, count == slots.length ? slots : Arrays.copyOf(slots, count)) : n;
        }

        /** The new content of one position (null, an element or a node) holding {@code old} before. */
        private Object slot(Object old, int from, int to, int shift) {
            if (to - from == 1 && !(old instanceof Node)) {
                Object e = elements[from];
                if (old == null) {
                    sizeChange++;
                    return e;
                }
                if (old.equals(e)) {
                    sizeChange--;
                    return null;
                }
                sizeChange++;
                return Node.pair(old, old.hashCode(), e, hashes[from], shift);
            }
            Node before = old instanceof Node n ? n : old == null ? EMPTY_NODE : Node.single(old, shift);
            Node after = apply(before, from, to, shift);
            if (after.slots.length == 0) {
                return null;
            }
            // A node left with one element collapses into its parent's position, as minus does.
            if (after.slots.length == 1 && !(after.slots[0] instanceof Node)) {
                return after.slots[0];
            }
            return after;
        }

        /**
         * Sorts {@code [from, to)} by the hash bits of this level (a counting sort) and returns
         * where each position's toggles start: position p holds {@code [starts[p], starts[p+1])}.
         */
        private int[] sortByPosition(int from, int to, int shift) {
            int[] starts = new int[MASK + 2];
            for (int i = from; i < to; i++) {
                starts[((hashes[i] >>> shift) & MASK) + 1]++;
            }
            starts[0] = from;
            for (int p = 1; p <= MASK + 1; p++) {
                starts[p] += starts[p - 1];
            }
            int k = to - from;
            Object[] e = new Object[k];
            int[] h = new int[k];
            int[] next = Arrays.copyOf(starts, MASK + 1);
            for (int i = from; i < to; i++) {
                int at = next[(hashes[i] >>> shift) & MASK]++ - from;
                e[at] = elements[i];
                h[at] = hashes[i];
            }
            System.arraycopy(e, 0, elements, from, k);
            System.arraycopy(h, 0, hashes, from, k);
            return starts;
        }

        private static int bucketsBitmap(int[] starts) {
            int bitmap = 0;
            for (int p = 0; p <= MASK; p++) {
                if (starts[p + 1] > starts[p]) {
                    bitmap |= 1 << p;
                }
            }
            return bitmap;
        }
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

        boolean containsHash(int hash, int shift) {
            if (collisionLevel(shift)) {
                // Every element below the last level has the full hash that led here.
                return slots.length > 0;
            }
            int bit = 1 << ((hash >>> shift) & MASK);
            if ((bitmap & bit) == 0) {
                return false;
            }
            Object slot = slots[Integer.bitCount(bitmap & (bit - 1))];
            return slot instanceof Node child ? child.containsHash(hash, shift + BITS) : slot.hashCode() == hash;
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

        /** A node at level {@code shift} holding one element. */
        static Node single(Object e, int shift) {
            return collisionLevel(shift) ? new Node(0, new Object[] {e}) : new Node(1 << ((e.hashCode() >>> shift) & MASK), new Object[] {e});
        }

        static Node pair(Object a, int hashA, Object b, int hashB, int shift) {
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
            /** The difference of two nodes at the same level; shared subtrees are skipped. */
        static void diff(Node a, Node b, int shift, Consumer<Object> removed, Consumer<Object> added) {
            if (a == b) {
                return;
            }
            if (collisionLevel(shift)) {
                for (Object x : a.slots) {
                    if (!b.contains(x, x.hashCode(), shift)) {
                        removed.accept(x);
                    }
                }
                for (Object y : b.slots) {
                    if (!a.contains(y, y.hashCode(), shift)) {
                        added.accept(y);
                    }
                }
                return;
            }
            int all = a.bitmap | b.bitmap;
            while (all != 0) {
                int bit = Integer.lowestOneBit(all);
                all &= ~bit;
                Object x = (a.bitmap & bit) == 0 ? null : a.slots[Integer.bitCount(a.bitmap & (bit - 1))];
                Object y = (b.bitmap & bit) == 0 ? null : b.slots[Integer.bitCount(b.bitmap & (bit - 1))];
                if (x == y) {
                    continue;
                }
                if (x == null) {
                    each(y, added);
                } else if (y == null) {
                    each(x, removed);
                } else if (x instanceof Node nx && y instanceof Node ny) {
                    diff(nx, ny, shift + BITS, removed, added);
                } else if (x instanceof Node nx) {
                    oneAgainstMany(y, nx, added, removed);
                } else if (y instanceof Node ny) {
                    oneAgainstMany(x, ny, removed, added);
                } else if (!x.equals(y)) {
                    removed.accept(x);
                    added.accept(y);
                }
            }
        }

        /** An element on one side where the other side has a subtree: every other element of the subtree differs. */
        private static void oneAgainstMany(Object element, Node many, Consumer<Object> elementSide, Consumer<Object> manySide) {
            boolean[] found = {false};
            each(many, e -> {
                if (e.equals(element)) {
                    found[0] = true;
                } else {
                    manySide.accept(e);
                }
            });
            if (!found[0]) {
                elementSide.accept(element);
            }
        }

        private static void each(Object slot, Consumer<Object> out) {
            if (slot instanceof Node n) {
                for (Object s : n.slots) {
                    each(s, out);
                }
            } else {
                out.accept(slot);
            }
        }
    }
}
