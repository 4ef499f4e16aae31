package dev.ovnj.ovsdb.client;

import dev.ovnj.ovsdb.ConnectionClosedException;
import dev.ovnj.ovsdb.rpc.RpcConnection;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import dev.ovnj.ovsdb.rpc.RpcPipeline;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import javax.net.ssl.SSLException;

/**
 * Opens one {@link Session} to one remote: TCP, TLS or a unix socket, and the JSON-RPC pipeline
 * ({@link RpcPipeline}). It knows nothing about databases, monitors or reconnecting.
 */
final class Connector {
    private final ClientOptions options;
    private final EventLoopGroup group;
    private final boolean epoll;
    private final BiConsumer<Session, RpcNotification> notifications;
    private final AtomicLong sessionIds = new AtomicLong();

    /**
     * Creates a connector.
     *
     * @param options remotes' TLS, timeouts, frame limits, probe interval
     * @param group the client's event loop
     * @param epoll whether Netty's native epoll transport is used
     * @param notifications receives every notification with the session it arrived on, on the I/O thread
     */
    Connector(ClientOptions options, EventLoopGroup group, boolean epoll, BiConsumer<Session, RpcNotification> notifications) {
        this.options = options;
        this.group = group;
        this.epoll = epoll;
        this.notifications = notifications;
    }

    /**
     * Connects to a remote.
     *
     * @param remote where to
     * @return the open session (TLS handshake done), or a {@link ConnectionRejectedException}
     */
    CompletableFuture<Session> open(Remote remote) {
        CompletableFuture<Session> out = new CompletableFuture<>();
        SslContext ssl;
        try {
            ssl = remote.kind() == Remote.Kind.SSL ? options.tls().orElseThrow().newContext() : null;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        SocketAddress address = remote.socketAddress();
        if (address instanceof InetSocketAddress inet && inet.isUnresolved()) {
            return CompletableFuture.failedFuture(new ConnectionRejectedException("cannot resolve the host of " + remote));
        }
        long id = sessionIds.incrementAndGet();
        Session[] holder = new Session[1];
        RpcConnection rpc = new RpcConnection(Runnable::run, n -> {
            Session s = holder[0];
            if (s != null) {
                notifications.accept(s, n);
            }
        }, options.maxPendingRequests());
        Bootstrap b = new Bootstrap().group(group)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (ssl != null) {
                            ch.pipeline().addLast("tls", ssl.newHandler(ch.alloc(), remote.host(), remote.port()));
                        }
                        RpcPipeline.configure(ch.pipeline(), options.frameLimits(), options.probeInterval(), rpc);
                    }
                });
        if (remote.kind() == Remote.Kind.UNIX) {
            b.channel(EpollDomainSocketChannel.class);
        } else {
            b.channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class);
            b.option(ChannelOption.TCP_NODELAY, true);
        }
        ChannelFuture cf = b.connect(address);
        cf.addListener(f -> {
            if (!f.isSuccess()) {
                out.completeExceptionally(new ConnectionRejectedException("cannot connect to " + remote + ": " + f.cause().getMessage(), f.cause()));
                return;
            }
            Channel ch = cf.channel();
            Session s = new Session(id, remote, ch, rpc);
            holder[0] = s;
            SslHandler tls = ch.pipeline().get(SslHandler.class);
            if (tls == null) {
                out.complete(s);
                return;
            }
            tls.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    out.complete(s);
                } else {
                    ch.close();
                    out.completeExceptionally(new ConnectionRejectedException("TLS handshake with " + remote + " failed: "
                            + TlsFailures.describe(h.cause(), options.tls().orElseThrow()), h.cause()));
                }
            });
        });
        return out;
    }

    /**
     * With TLS 1.3 the server checks the client's certificate after the client considers the
     * handshake done, so a refused certificate shows up as the connection closing during the first
     * request; it is reported like any other handshake failure, naming the certificate file.
     *
     * @param remote the remote concerned
     * @param cause why the attempt failed
     * @return the cause, or a clearer {@link ConnectionRejectedException}
     */
    Throwable lateTlsRefusal(Remote remote, Throwable cause) {
        if (remote.kind() != Remote.Kind.SSL || !(cause instanceof ConnectionClosedException)) {
            return cause;
        }
        for (Throwable t = cause.getCause(); t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return new ConnectionRejectedException("TLS handshake with " + remote + " failed: "
                        + TlsFailures.describe(t, options.tls().orElseThrow()), t);
            }
        }
        return cause;
    }
}
