package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.ovsdb.tx.TransactionResult;

/**
 * The server committed the transaction (its reply said so), but the connection failed before the
 * client could confirm that the cache holds its effects. Not retriable as is: the transaction is
 * in the database, and sending it again would apply it twice. Re-read the cache after the client
 * synced again, or retry only a transaction that is idempotent (guarded by {@code wait} or
 * conditions).
 */
public final class CommitUnconfirmedException extends OvsdbRpcException {
    private static final long serialVersionUID = 1L;

    private final transient TransactionResult result;

    CommitUnconfirmedException(TransactionResult result, Throwable cause) {
        super("the transaction committed, but the connection failed before its effects reached the cache: "
                + (cause == null ? "closed" : cause.getMessage()), cause);
        this.result = result;
    }

    /**
     * The committed transaction's decoded reply (e.g. the uuids of inserted rows).
     *
     * @return the result the server sent
     */
    public TransactionResult result() {
        return result;
    }

    @Override
    public boolean retriable() {
        return false;
    }
}
