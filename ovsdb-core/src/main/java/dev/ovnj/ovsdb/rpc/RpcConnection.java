package dev.ovnj.ovsdb.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.ConnectionClosedException;
import dev.ovnj.ovsdb.RpcErrorException;
import dev.ovnj.ovsdb.RpcTimeoutException;
import dev.ovnj.ovsdb.TooManyPendingRequestsException;
import dev.ovnj.ovsdb.wire.ProtocolException;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CodecException;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSON-RPC endpoint of one OVSDB channel: sends calls and correlates their responses,
 * answers the server's {@code echo} requests, and hands notifications to a listener.
 *
 * <p>Install it as the last handler of the pipeline (see {@link RpcPipeline}); an instance
 * serves exactly one channel. Its methods may be called from any thread.
 *
 * <p>Call futures complete on the channel's event loop, so stages chained with the non-async
 * methods of {@link CompletableFuture} run there and must not block; chain with the
 * {@code *Async} variants to do slow work. Such stages run before any later message is read,
 * so a monitor's initial reply is seen before the updates that follow it. Notifications, by
 * contrast, are delivered on the executor given at construction, in arrival order.
 */
public final class RpcConnection extends ChannelDuplexHandler {

    /** Default limit of calls awaiting their response. */
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(RpcConnection.class);
    private static final String ECHO = "echo";

    private final Executor notificationExecutor;
    private final NotificationListener listener;
    private final int maxPendingRequests;
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final AtomicInteger pendingCount = new AtomicInteger();
    private final AtomicLong unmatchedResponses = new AtomicLong();
    private final CompletableFuture<Throwable> closeFuture = new CompletableFuture<>();

    // Confined to the event loop, which makes every state transition single-threaded.
    private final Map<Long, PendingCall> pending = new HashMap<>();
    private int pendingDumps;
    private long nextId = 1;
    private boolean flushScheduled;
    private boolean closed;
    private Throwable closeCause;

    private volatile ChannelHandlerContext ctx;

    /**
     * Creates a connection endpoint with {@link #DEFAULT_MAX_PENDING_REQUESTS}.
     *
     * @param notificationExecutor where notifications are delivered; it may be multi-threaded,
     *                             order is preserved regardless
     * @param listener             receives the server's notifications
     */
    public RpcConnection(Executor notificationExecutor, NotificationListener listener) {
        this(notificationExecutor, listener, DEFAULT_MAX_PENDING_REQUESTS);
    }

    /**
     * Creates a connection endpoint.
     *
     * @param notificationExecutor where notifications are delivered; it may be multi-threaded,
     *                             order is preserved regardless
     * @param listener             receives the server's notifications
     * @param maxPendingRequests   calls allowed to await a response at once; further calls fail
     *                             immediately with {@link TooManyPendingRequestsException}
     */
    public RpcConnection(Executor notificationExecutor, NotificationListener listener, int maxPendingRequests) {
        if (maxPendingRequests <= 0) {
            throw new IllegalArgumentException("maxPendingRequests must be positive: " + maxPendingRequests);
        }
        Objects.requireNonNull(notificationExecutor, "notificationExecutor");
        this.notificationExecutor = new SerialExecutor(notificationExecutor);
        this.listener = Objects.requireNonNull(listener, "listener");
        this.maxPendingRequests = maxPendingRequests;
    }

    /**
     * Sends a request and returns its eventual result.
     *
     * <p>The future fails with {@link RpcErrorException} if the server answers with an error,
     * {@link RpcTimeoutException} if no answer arrives in time, {@link ConnectionClosedException}
     * if the connection closes first and {@link TooManyPendingRequestsException} if the pending
     * limit is reached. Cancelling the future forgets the request; a late answer is then ignored.
     *
     * @param method  the method, e.g. {@code "transact"}
     * @param params  the positional parameters, not to be modified afterwards
     * @param timeout how long to wait for the answer; zero or negative waits indefinitely
     * @return the {@code result} member of the response
     */
    public CompletableFuture<JsonNode> call(String method, ArrayNode params, Duration timeout) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(timeout, "timeout");
        CompletableFuture<JsonNode> result = new CompletableFuture<>();
        ChannelHandlerContext context = ctx;
        if (context == null) {
            result.completeExceptionally(new IllegalStateException("RpcConnection is not in a channel pipeline"));
        } else if (closeFuture.isDone()) {
            result.completeExceptionally(new ConnectionClosedException(closeFuture.join()));
        } else if (!reserveSlot()) {
            result.completeExceptionally(new TooManyPendingRequestsException(maxPendingRequests));
        } else {
            EventExecutor loop = context.executor();
            if (loop.inEventLoop()) {
                send(context, method, params, timeout, result);
                context.flush();
            } else {
                try {
                    loop.execute(() -> {
                        send(context, method, params, timeout, result);
                        flushSoon(context);
                    });
                } catch (RejectedExecutionException rejected) {
                    pendingCount.decrementAndGet();
                    result.completeExceptionally(new ConnectionClosedException(rejected));
                }
            }
        }
        return result;
    }

    /**
     * Sends a notification, a request without id that the server does not answer. Failures to
     * send are only logged, as there is nobody to report them to.
     *
     * @param method the method
     * @param params the positional parameters, not to be modified afterwards
     */
    public void notify(String method, ArrayNode params) {
        RpcNotification notification = new RpcNotification(method, params);
        ChannelHandlerContext context = ctx;
        if (context == null || closeFuture.isDone()) {
            LOG.debug("dropping notification {}: connection not open", method);
            return;
        }
        context.writeAndFlush(notification).addListener(f -> {
            if (!f.isSuccess()) {
                LOG.debug("failed to send notification {}", method, f.cause());
            }
        });
    }

    /**
     * Closes the channel.
     *
     * @return {@link #closeFuture()}
     */
    public CompletableFuture<Throwable> close() {
        ChannelHandlerContext context = ctx;
        if (context != null) {
            context.close();
        }
        return closeFuture;
    }

    /**
     * Returns a future that completes once the connection has closed and every pending call
     * has failed.
     *
     * @return completes with the error that closed the connection, or {@code null} for an
     *         orderly close
     */
    public CompletableFuture<Throwable> closeFuture() {
        return closeFuture;
    }

    /**
     * Returns the number of responses whose id matched no pending call, because it had timed
     * out, been cancelled, or was never sent.
     *
     * @return the count since the connection was created
     */
    public long unmatchedResponses() {
        return unmatchedResponses.get();
    }

    /**
     * Returns the number of accepted calls that have not completed yet.
     *
     * @return the current count, at most {@link #maxPendingRequests()}
     */
    public int pendingRequests() {
        return pendingCount.get();
    }

    /**
     * Returns the limit of calls awaiting a response.
     *
     * @return the limit given at construction
     */
    public int maxPendingRequests() {
        return maxPendingRequests;
    }

    /**
     * Whether a request for a database dump (a {@code monitor}, {@code monitor_cond} or
     * {@code monitor_cond_since}, whose reply holds the monitored tables' rows) awaits its
     * answer. ovsdb-server composes such a reply whole before it sends a byte of it, and answers
     * nothing else meanwhile: seconds of silence for a large Southbound, which is then this
     * client's own doing and not a sign of a dead server (see {@link InactivityProbe}). The
     * request's own timeout ({@code requestTimeout}, 30 s by default) bounds the wait, and is then
     * what finds a server that froze while composing it. The {@code _Server} monitor of the
     * handshake does not count. Event loop only.
     *
     * @return true while such a request is pending
     */
    boolean awaitingDump() {
        return pendingDumps > 0;
    }

    /**
     * A monitor of a database other than {@code _Server}: the {@code _Server} monitor of the
     * handshake is a few rows, answered at once by a live server, so a server frozen during the
     * handshake is still found by the probe.
     */
    private static boolean isDump(String method, ArrayNode params) {
        boolean monitor = method.equals("monitor") || method.equals("monitor_cond") || method.equals("monitor_cond_since");
        return monitor && !(params.size() > 0 && "_Server".equals(params.get(0).asText()));
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        closeWith(closeCause);
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        LOG.debug("OVSDB connection to {} open", context.channel().remoteAddress());
        context.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        closeWith(closeCause);
        context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (closed) {
            LOG.debug("ignoring error after close of {}", context.channel(), cause);
            return;
        }
        if (closeCause == null) {
            closeCause = protocolCause(cause);
        }
        context.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        if (msg instanceof RpcResponse response) {
            onResponse(context, response);
        } else if (msg instanceof RpcRequest request) {
            onRequest(context, request);
        } else if (msg instanceof RpcNotification notification) {
            notificationExecutor.execute(() -> listener.onNotification(notification));
        } else {
            context.fireChannelRead(msg);
        }
    }

    private boolean reserveSlot() {
        while (true) {
            int current = pendingCount.get();
            if (current >= maxPendingRequests) {
                return false;
            }
            if (pendingCount.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    private static void onEventLoop(EventExecutor loop, Runnable task, Consumer<RejectedExecutionException> rejected) {
        if (loop.inEventLoop()) {
            task.run();
            return;
        }
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            rejected.accept(e);
        }
    }

    private void send(ChannelHandlerContext context, String method, ArrayNode params, Duration timeout,
                      CompletableFuture<JsonNode> result) {
        if (closed) {
            pendingCount.decrementAndGet();
            result.completeExceptionally(new ConnectionClosedException(closeCause));
            return;
        }
        if (result.isDone()) {
            // Cancelled by the caller before it could be sent.
            pendingCount.decrementAndGet();
            return;
        }
        long id = nextId++;
        PendingCall call = new PendingCall(method, isDump(method, params), result);
        pending.put(id, call);
        if (call.dump()) {
            pendingDumps++;
        }
        if (!timeout.isZero() && !timeout.isNegative()) {
            call.timer(context.executor().schedule(() -> expire(id, timeout), timeout.toNanos(), TimeUnit.NANOSECONDS));
        }
        // Covers cancellation or completion by the caller; a no-op when we completed it ourselves.
        // A rejected task means the loop is gone, and closing already forgot every call.
        result.whenComplete((value, error) -> onEventLoop(context.executor(), () -> forget(id), rejected -> { }));
        RpcRequest request = new RpcRequest(nodes.numberNode(id), method, params);
        context.write(request).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                failSend(id, f);
            }
        });
        flushSoon(context);
    }

    /**
     * Flushes after the event loop's tasks queued so far: calls submitted together from other
     * threads (a pipelined burst) leave in one socket write instead of one each, while a lone call
     * is flushed as soon as the task that wrote it returns, with no timer and no thread hop. A call
     * made on the event loop itself is flushed at once by {@link #call}.
     */
    private void flushSoon(ChannelHandlerContext context) {
        if (flushScheduled) {
            return;
        }
        flushScheduled = true;
        try {
            context.executor().execute(() -> {
                flushScheduled = false;
                context.flush();
            });
        } catch (RejectedExecutionException shuttingDown) {
            flushScheduled = false;
            context.flush();
        }
    }

    private void failSend(long id, ChannelFuture f) {
        PendingCall call = forget(id);
        if (call != null) {
            boolean connectionGone = closed || !f.channel().isActive();
            call.future().completeExceptionally(connectionGone ? new ConnectionClosedException(f.cause()) : f.cause());
        }
    }

    private void expire(long id, Duration timeout) {
        PendingCall call = forget(id);
        if (call != null) {
            call.future().completeExceptionally(new RpcTimeoutException(call.method(), timeout));
        }
    }

    private PendingCall forget(long id) {
        PendingCall call = pending.remove(id);
        if (call != null) {
            if (call.dump()) {
                pendingDumps--;
            }
            call.cancelTimer();
            pendingCount.decrementAndGet();
        }
        return call;
    }

    private void onResponse(ChannelHandlerContext context, RpcResponse response) {
        JsonNode id = response.id();
        PendingCall call = id.isIntegralNumber() && id.canConvertToLong() ? forget(id.asLong()) : null;
        if (call == null) {
            unmatchedResponses.incrementAndGet();
            LOG.debug("ignoring response with unknown id {} on {}", id, context.channel());
        } else if (response.isError()) {
            call.future().completeExceptionally(new RpcErrorException(response.error()));
        } else {
            call.future().complete(response.result());
        }
    }

    private void onRequest(ChannelHandlerContext context, RpcRequest request) {
        RpcResponse reply;
        if (ECHO.equals(request.method())) {
            reply = RpcResponse.success(request.id(), request.params());
        } else {
            LOG.debug("rejecting unsupported request {} on {}", request.method(), context.channel());
            ObjectNode error = nodes.objectNode()
                    .put("error", "unknown method")
                    .put("details", "method \"" + request.method() + "\" is not supported by this client");
            reply = RpcResponse.failure(request.id(), error);
        }
        context.writeAndFlush(reply);
    }

    private void closeWith(Throwable cause) {
        if (closed) {
            return;
        }
        closed = true;
        // DEBUG: the owner of the connection (OvsdbClient) logs the state change once, with the remote it dialled.
        if (cause == null) {
            LOG.debug("OVSDB connection to {} closed", ctx.channel().remoteAddress());
        } else {
            LOG.debug("OVSDB connection to {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
        }
        List<PendingCall> calls = new ArrayList<>(pending.values());
        pending.clear();
        pendingDumps = 0;
        for (PendingCall call : calls) {
            call.cancelTimer();
            pendingCount.decrementAndGet();
            call.future().completeExceptionally(new ConnectionClosedException(cause));
        }
        closeFuture.complete(cause);
    }

    private static Throwable protocolCause(Throwable cause) {
        // The codec's decoder wraps our own protocol errors; callers want the original.
        if (cause instanceof CodecException && cause.getCause() instanceof ProtocolException protocolError) {
            return protocolError;
        }
        return cause;
    }
}
