package dev.ovnj.testkit.inmemory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Named locks (RFC 7047 section 4.1.8): the first session in a lock's queue owns it; "steal"
 * jumps the queue and tells the previous owner "stolen" (it stays in line); when the owner lets go, the next in
 * line is told "locked".
 */
final class Locks {
    private final Map<String, Deque<ConnectionHandler>> queues = new HashMap<>();

    boolean lock(ConnectionHandler s, String name, boolean steal) {
        Deque<ConnectionHandler> q = queues.computeIfAbsent(name, k -> new ArrayDeque<>());
        s.lockRequests.add(name);
        if (steal) {
            ConnectionHandler previous = q.peekFirst();
            q.addFirst(s);
            if (previous != null && previous != s) {
                // As in ovsdb-server, the victim keeps its place in line, now behind the thief.
                previous.notify("stolen", JsonTrees.array().add(name));
            }
            return true;
        }
        q.addLast(s);
        return q.peekFirst() == s;
    }

    boolean owns(ConnectionHandler s, String name) {
        Deque<ConnectionHandler> q = queues.get(name);
        return q != null && q.peekFirst() == s;
    }

    void unlock(ConnectionHandler s, String name) {
        s.lockRequests.remove(name);
        Deque<ConnectionHandler> q = queues.get(name);
        if (q == null) {
            return;
        }
        boolean wasOwner = q.peekFirst() == s;
        q.remove(s);
        if (q.isEmpty()) {
            queues.remove(name);
        } else if (wasOwner) {
            q.peekFirst().notify("locked", JsonTrees.array().add(name));
        }
    }

    void release(ConnectionHandler s) {
        for (String name : s.lockRequests.toArray(new String[0])) {
            unlock(s, name);
        }
    }
}
