package dev.ovnj.lb;

import dev.ovnj.ovsdb.Futures;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.ovsdb.RpcErrorException;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionException;
import dev.ovnj.ovsdb.tx.WaitTimedOutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * Sends the transactions of one chunk of specs and sorts the outcome: committed; a guard found a
 * concurrent writer (re-plan at once); retriable (not leader, connection lost, timed out: back
 * off); or permanent (constraint violation, referential integrity, "not allowed" from a read-only
 * server, a value the schema refuses: fail the spec at once, in the server's words).
 */
final class TransactionSender {
    /** What became of a chunk. */
    enum Kind { COMMITTED, GUARD_FAILED, RETRIABLE, PERMANENT }

    /**
     * The outcome of a chunk's transactions.
     *
     * @param kind the worst kind among them
     * @param error the error that decided it, null when committed
     * @param sent each transaction's answer, for the listeners
     */
    record Outcome(Kind kind, Throwable error, List<Sent> sent) {
        Outcome(Kind kind, Throwable error) {
            this(kind, error, List.of());
        }

        WriteError writeError() {
            return describe(error);
        }

        /** Tells the listeners of each transaction; on the engine thread, so with the step's other events. */
        void publish(ListenerBus bus) {
            for (Sent s : sent) {
                bus.publish(ListenerBus.Event.TRANSACTION, l -> l.onTransaction(s.operations(), s.latency(), s.error()));
            }
        }
    }

    /**
     * One transaction's answer.
     *
     * @param operations its operations
     * @param latency from sending to the answer
     * @param error why it failed, null when committed
     */
    record Sent(int operations, Duration latency, Throwable error) {
    }

    private final OvsdbClient client;
    private final EngineCounters counters;

    TransactionSender(OvsdbClient client, EngineCounters counters) {
        this.client = client;
        this.counters = counters;
    }

    /** Sends every transaction; completes (never exceptionally) when all have an answer. */
    CompletableFuture<Outcome> send(List<Transaction> txs) {
        List<CompletableFuture<Sent>> each = new java.util.ArrayList<>();
        for (Transaction tx : txs) {
            each.add(sendOne(tx));
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture<?>[]::new)).handle((x, e) -> {
            Kind worst = Kind.COMMITTED;
            Throwable decided = null;
            List<Sent> sent = new java.util.ArrayList<>(each.size());
            for (CompletableFuture<Sent> f : each) {
                Sent s = f.join();
                sent.add(s);
                Kind k = s.error() == null ? Kind.COMMITTED : classify(s.error());
                if (k.ordinal() > worst.ordinal()) {
                    worst = k;
                    decided = s.error();
                }
            }
            return new Outcome(worst, decided, sent);
        });
    }

    /**
     * One transaction. Its one bound is the client's request timeout (an unanswered transaction
     * fails there as retriable), so the engine keeps no timer of its own per transaction.
     */
    private CompletableFuture<Sent> sendOne(Transaction tx) {
        long sent = System.nanoTime();
        CompletableFuture<?> call;
        try {
            call = client.transact(tx);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        return call.handle((result, err) -> {
            Throwable cause = Futures.unwrap(err);
            Duration latency = Duration.ofNanos(System.nanoTime() - sent);
            int ops = tx.operations().size();
            if (cause == null) {
                counters.transactions.incrementAndGet();
                counters.operations.addAndGet(ops);
            }
            return new Sent(ops, latency, cause);
        });
    }

    static Kind classify(Throwable e) {
        if (e instanceof WaitTimedOutException) {
            return Kind.GUARD_FAILED;
        }
        if (e instanceof TransactionException t) {
            return t.retriable() ? Kind.RETRIABLE : Kind.PERMANENT;
        }
        if (e instanceof OvsdbRpcException r) {
            return r.retriable() ? Kind.RETRIABLE : Kind.PERMANENT;
        }
        if (e instanceof TimeoutException) {
            return Kind.RETRIABLE;
        }
        return Kind.PERMANENT;
    }

    /** The server's error and details, or the client's reason for not sending. */
    static WriteError describe(Throwable e) {
        if (e == null) {
            return new WriteError("", "");
        }
        if (e instanceof TransactionException t) {
            return new WriteError(t.error(), t.details().orElse(""));
        }
        if (e instanceof RpcErrorException r) {
            return new WriteError(r.error(), r.details() == null ? "" : r.details());
        }
        if (e instanceof TimeoutException) {
            return new WriteError("timed out", "no answer from the database");
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        return new WriteError(e.getClass().getSimpleName(), message);
    }
}
