package dev.ovnj.ovsdb.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.wire.JsonFrameDecoder;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Exercises the connection on real event loops, where callers are not on the loop thread. */
class RpcConnectionConcurrencyTest {

    private final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);
    private final ExecutorService callers = Executors.newFixedThreadPool(4);
    private final ExecutorService listenerPool = Executors.newFixedThreadPool(2, r -> new Thread(r, "listener"));

    @AfterEach
    void shutdown() throws InterruptedException {
        callers.shutdownNow();
        listenerPool.shutdownNow();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }

    /** Answers every call with its own id as result, after sending a notification. */
    private static final class FakeServer extends SimpleChannelInboundHandler<RpcMessage> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, RpcMessage msg) {
            RpcRequest request = (RpcRequest) msg;
            ctx.write(new RpcNotification("update3", JsonNodeFactory.instance.arrayNode().add(request.id())));
            ctx.writeAndFlush(RpcResponse.success(request.id(), request.id()));
        }
    }

    /** A local server answering every request with its id, after an {@code update3} carrying the id. */
    private Channel fakeServer(LocalAddress address) throws InterruptedException {
        return new ServerBootstrap().group(loops).channel(LocalServerChannel.class)
                .childHandler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        ch.pipeline().addLast(new JsonFrameDecoder(FrameLimits.defaults()),
                                new RpcMessageEncoder(), new RpcMessageDecoder(), new FakeServer());
                    }
                }).bind(address).sync().channel();
    }

    @Test
    void callsFromManyThreadsAreAllAnsweredAndNotificationsStayOffTheLoop() throws Exception {
        LocalAddress address = new LocalAddress("ovsdb-" + System.nanoTime());
        Channel server = fakeServer(address);

        int calls = 2000;
        CountDownLatch notified = new CountDownLatch(calls);
        Set<String> listenerThreads = ConcurrentHashMap.newKeySet();
        List<Long> notifiedIds = new ArrayList<>();
        RpcConnection conn = new RpcConnection(listenerPool, n -> {
            listenerThreads.add(Thread.currentThread().getName());
            synchronized (notifiedIds) {
                notifiedIds.add(n.params().get(0).asLong());
            }
            notified.countDown();
        });
        Channel client = new Bootstrap().group(loops).channel(LocalChannel.class)
                .handler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        RpcPipeline.configure(ch.pipeline(), FrameLimits.defaults(), Duration.ZERO, conn);
                    }
                }).connect(address).sync().channel();

        List<CompletableFuture<JsonNode>> results = new ArrayList<>();
        List<CompletableFuture<CompletableFuture<JsonNode>>> submitted = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            submitted.add(CompletableFuture.supplyAsync(
                    () -> conn.call("transact", JsonNodeFactory.instance.arrayNode(), Duration.ofSeconds(30)), callers));
        }
        for (CompletableFuture<CompletableFuture<JsonNode>> s : submitted) {
            results.add(s.get(30, TimeUnit.SECONDS));
        }
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        for (CompletableFuture<JsonNode> r : results) {
            ids.add(r.get(30, TimeUnit.SECONDS).asLong());
        }
        assertThat(ids).hasSize(calls);
        assertThat(notified.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(notifiedIds).isSorted();
        assertThat(listenerThreads).containsOnly("listener");
        assertThat(conn.pendingRequests()).isZero();
        assertThat(conn.unmatchedResponses()).isZero();

        client.close().sync();
        assertThat(conn.closeFuture().get(10, TimeUnit.SECONDS)).isNull();
        server.close().sync();
    }

    @Test
    void aBurstOfCallsFromAnotherThreadLeavesInOneFlushAndALoneCallIsFlushedAtOnce() throws Exception {
        LocalAddress address = new LocalAddress("ovsdb-" + System.nanoTime());
        Channel server = fakeServer(address);
        AtomicInteger flushes = new AtomicInteger();
        RpcConnection conn = new RpcConnection(listenerPool, n -> { });
        Channel client = new Bootstrap().group(loops).channel(LocalChannel.class)
                .handler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        ch.pipeline().addLast(new ChannelOutboundHandlerAdapter() {
                            @Override
                            public void flush(ChannelHandlerContext ctx) {
                                flushes.incrementAndGet();
                                ctx.flush();
                            }
                        });
                        RpcPipeline.configure(ch.pipeline(), FrameLimits.defaults(), Duration.ZERO, conn);
                    }
                }).connect(address).sync().channel();

        // Hold the client's event loop so that the whole burst is queued before any of it runs.
        CountDownLatch release = new CountDownLatch(1);
        client.eventLoop().execute(() -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        int before = flushes.get();
        List<CompletableFuture<JsonNode>> burst = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            burst.add(conn.call("transact", JsonNodeFactory.instance.arrayNode(), Duration.ofSeconds(30)));
        }
        release.countDown();
        for (CompletableFuture<JsonNode> r : burst) {
            r.get(30, TimeUnit.SECONDS);
        }
        assertThat(flushes.get() - before).as("flushes for 50 queued calls").isEqualTo(1);

        // Nothing else queued: a single call must not wait for company.
        assertThat(conn.call("transact", JsonNodeFactory.instance.arrayNode(), Duration.ofSeconds(30))
                .get(10, TimeUnit.SECONDS)).isNotNull();

        client.close().sync();
        server.close().sync();
    }
}
