package dev.ovnj.lb;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.OvsdbRpcException;
import dev.ovnj.ovsdb.RpcErrorException;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.tx.TransactionException;
import dev.ovnj.ovsdb.tx.WaitTimedOutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends the transactions of one chunk of specs and sorts the outcome: committed; a guard found a
 * concurrent writer (re-plan at once); retriable (not leader, connection lost, timed out: back
 * off); or permanent (constraint violation, referential integrity, "not allowed" from a read-only
 * server, a value the schema refuses: fail the spec at once, in the server's words).
 */
final class TxExecutor {
    /** What became of a chunk. */
    enum Kind { COMMITTED, GUARD_FAILED, RETRIABLE, PERMANENT }

    /**
     * The outcome of a chunk's transactions.
     *
     * @param kind the worst kind among them
     * @param error the error that decided it, null when committed
     */
    record Outcome(Kind kind, Throwable error) {
        ServerError serverError() {
            return describe(error);
        }
    }

    private final OvsdbClient client;
    private final EngineCounters counters;
    private final ListenerBus bus;
    private final Duration bound;
    private final ScheduledExecutorService timer;

    TxExecutor(OvsdbClient client, EngineCounters counters, ListenerBus bus, Duration bound, ScheduledExecutorService timer) {
        this.client = client;
        this.counters = counters;
        this.bus = bus;
        this.bound = bound;
        this.timer = timer;
    }

    /** Sends every transaction; completes (never exceptionally) when all have an answer. */
    CompletableFuture<Outcome> send(List<Transaction> txs) {
        List<CompletableFuture<Outcome>> each = new java.util.ArrayList<>();
        for (Transaction tx : txs) {
            each.add(sendOne(tx));
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture<?>[]::new)).handle((x, e) -> {
            Outcome worst = new Outcome(Kind.COMMITTED, null);
            for (CompletableFuture<Outcome> f : each) {
                Outcome o = f.join();
                if (o.kind().ordinal() > worst.kind().ordinal()) {
                    worst = o;
                }
            }
            return worst;
        });
    }

    private CompletableFuture<Outcome> sendOne(Transaction tx) {
        long sent = System.nanoTime();
        CompletableFuture<Outcome> out = new CompletableFuture<>();
        CompletableFuture<?> call;
        try {
            call = client.transact(tx);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        // The client bounds its own requests; this bound only guards against a lost answer.
        bounded(call).whenComplete((result, err) -> {
            Throwable cause = unwrap(err);
            Duration latency = Duration.ofNanos(System.nanoTime() - sent);
            int ops = tx.operations().size();
            bus.publish(ListenerBus.Event.TRANSACTION, l -> l.onTransaction(ops, latency, cause));
            if (cause == null) {
                counters.transactions.incrementAndGet();
                counters.operations.addAndGet(ops);
                out.complete(new Outcome(Kind.COMMITTED, null));
            } else {
                out.complete(new Outcome(classify(cause), cause));
            }
        });
        return out;
    }

    /**
     * The call, failed with a {@link TimeoutException} once the bound has passed. Timed on the
     * engine's watchdog, whose periodic check is always due first, rather than with
     * {@code orTimeout}: the JDK's shared delay thread has nothing else queued, so every
     * transaction's timeout would be its new head and wake it, right when the I/O thread and the
     * server need the cores.
     */
    private CompletableFuture<Object> bounded(CompletableFuture<?> call) {
        CompletableFuture<Object> out = new CompletableFuture<>();
        ScheduledFuture<?> expiry;
        try {
            expiry = timer.schedule(() -> out.completeExceptionally(new TimeoutException()), bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            // The engine is closing: the JDK's timer still bounds it.
            return call.orTimeout(bound.toMillis(), TimeUnit.MILLISECONDS).thenApply(r -> (Object) r);
        }
        call.whenComplete((r, e) -> {
            expiry.cancel(false);
            if (e != null) {
                out.completeExceptionally(e);
            } else {
                out.complete(r);
            }
        });
        return out;
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
    static ServerError describe(Throwable e) {
        if (e == null) {
            return new ServerError("", "");
        }
        if (e instanceof TransactionException t) {
            return new ServerError(t.error(), t.details().orElse(""));
        }
        if (e instanceof RpcErrorException r) {
            return new ServerError(r.error(), r.details() == null ? "" : r.details());
        }
        if (e instanceof TimeoutException) {
            return new ServerError("timed out", "no answer from the database");
        }
        String message = e.getMessage() == null ? "" : e.getMessage();
        return new ServerError(e.getClass().getSimpleName(), message);
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
