package dev.ovnj.ovsdb.tx;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Entry points for building operations fluently, e.g.
 * {@code Operations.insert("Load_Balancer").value("name", "x").uuidName("lb")}.
 */
public final class Operations {

    private Operations() {
    }

    /**
     * Starts an insert with no column values.
     *
     * @param table the table name
     * @return the insert
     */
    public static Insert insert(String table) {
        return new Insert(table, Map.of(), Optional.empty(), Optional.empty());
    }

    /**
     * Starts a select of all columns of all rows.
     *
     * @param table the table name
     * @return the select
     */
    public static Select select(String table) {
        return new Select(table, List.of(), Optional.empty());
    }

    /**
     * Starts an update of all rows that sets nothing yet.
     *
     * @param table the table name
     * @return the update
     */
    public static Update update(String table) {
        return new Update(table, List.of(), Map.of());
    }

    /**
     * Starts a mutate of all rows without mutations yet.
     *
     * @param table the table name
     * @return the mutate
     */
    public static Mutate mutate(String table) {
        return new Mutate(table, List.of(), List.of());
    }

    /**
     * Starts a delete of all rows.
     *
     * @param table the table name
     * @return the delete
     */
    public static Delete delete(String table) {
        return new Delete(table, List.of());
    }

    /**
     * Starts a wait for equality with no columns, no rows and no timeout.
     *
     * @param table the table name
     * @return the wait
     */
    public static Wait wait(String table) {
        return new Wait(table, List.of(), List.of(), Wait.Until.EQ, List.of(), OptionalLong.empty());
    }

    /**
     * Returns a commit.
     *
     * @param durable whether to wait for stable storage
     * @return the commit
     */
    public static Commit commit(boolean durable) {
        return new Commit(durable);
    }

    /**
     * Returns an abort.
     *
     * @return the abort
     */
    public static Abort abort() {
        return new Abort();
    }

    /**
     * Returns a comment.
     *
     * @param text the text
     * @return the comment
     */
    public static Comment comment(String text) {
        return new Comment(text);
    }

    /**
     * Returns an assert of lock ownership.
     *
     * @param lock the lock name
     * @return the assert
     */
    public static Assert assertLock(String lock) {
        return new Assert(lock);
    }
}
