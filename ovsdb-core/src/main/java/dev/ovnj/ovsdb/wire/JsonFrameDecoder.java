package dev.ovnj.ovsdb.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.async.ByteBufferFeeder;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ovnj.ovsdb.FrameLimits;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the undelimited OVSDB byte stream into JSON objects, emitting one {@link JsonNode} per
 * top-level value.
 *
 * <p>Bytes are handed straight to Jackson's non-blocking parser, which keeps partial tokens
 * itself; this handler therefore never accumulates raw input. Input is fed in slices no larger
 * than what the current message may still grow by, so a peer that never finishes a message is
 * cut off after {@link FrameLimits#maxMessageBytes()} instead of exhausting memory; a single string
 * is bounded on its own by {@link FrameLimits#maxStringLength()}, since the parser holds a string
 * whole until it ends.
 *
 * <p>On any violation the handler fires a {@link ProtocolException} through
 * {@code exceptionCaught}, discards all further input and closes the channel. One instance
 * serves exactly one channel.
 */
public final class JsonFrameDecoder extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(JsonFrameDecoder.class);

    private final FrameLimits limits;
    private final JsonFactory factory;
    private final JsonTreeBuilder tree = new JsonTreeBuilder();
    private JsonParser parser;
    private long bytesFed;
    private long messageStart;
    private boolean failed;
    private boolean emittedSinceReadComplete;

    /**
     * Creates a decoder enforcing the given limits.
     *
     * @param limits size and depth bounds for one message
     */
    public JsonFrameDecoder(FrameLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        // Our own depth check fires first, so the peer gets the documented exception; Jackson's
        // depth constraint only backstops it. Strings are Jackson's to bound: it checks a string's
        // length as its buffer grows, so an endless one stops at the bound, not at the message
        // limit (see drain for the exception it becomes).
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(limits.maxDepth() + 1)
                .maxStringLength(limits.maxStringLength())
                .maxNameLength(limits.maxStringLength())
                .build();
        // Row UUIDs appear as field names, tens of thousands in one monitor reply. Interning them
        // would pin them in the JVM string table; canonicalizing them made Jackson copy its growing
        // name table for every new long name (a 50,000-row reply allocated 230 MB of int[] there,
        // two thirds of its decoding) and kept every UUID ever received in this connection-long
        // parser's symbol table (about 170 B per cached Load_Balancer row, growing with churn).
        this.factory = JsonFactory.builder()
                .streamReadConstraints(constraints)
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                .build();
    }

    /**
     * Returns the limits this decoder enforces.
     *
     * @return the limits given at construction
     */
    public FrameLimits limits() {
        return limits;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws IOException {
        parser = factory.createNonBlockingByteBufferParser();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closeParser();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closeParser();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (!failed && parser != null) {
                decode(ctx, in);
            }
        } catch (ProtocolException e) {
            fail(ctx, e);
        } finally {
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // Without auto-read nobody else asks for more bytes while a message is still incomplete.
        if (!emittedSinceReadComplete && !failed && !ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
        emittedSinceReadComplete = false;
        ctx.fireChannelReadComplete();
    }

    private void decode(ChannelHandlerContext ctx, ByteBuf in) {
        for (ByteBuffer chunk : in.nioBuffers()) {
            while (chunk.hasRemaining() && !failed && parser != null) {
                int slice = (int) Math.min(chunk.remaining(), remainingAllowance());
                ByteBuffer piece = chunk.slice();
                piece.limit(slice);
                chunk.position(chunk.position() + slice);
                feed(piece);
                drain(ctx);
            }
        }
    }

    /** Bytes the current message may still take, plus one so that exceeding it is detectable. */
    private long remainingAllowance() {
        return limits.maxMessageBytes() - (bytesFed - messageStart) + 1;
    }

    private void feed(ByteBuffer piece) {
        try {
            ((ByteBufferFeeder) parser.getNonBlockingInputFeeder()).feedInput(piece);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        bytesFed += piece.remaining();
    }

    private void drain(ChannelHandlerContext ctx) {
        try {
            JsonToken token;
            while (parser != null && (token = parser.nextToken()) != JsonToken.NOT_AVAILABLE && token != null) {
                JsonNode message = accept(token);
                if (message != null) {
                    long messageEnd = parser.currentLocation().getByteOffset();
                    if (messageEnd - messageStart > limits.maxMessageBytes()) {
                        throw new FrameTooLargeException(limits.maxMessageBytes());
                    }
                    messageStart = messageEnd;
                    emittedSinceReadComplete = true;
                    ctx.fireChannelRead(message);
                }
            }
        } catch (StreamConstraintsException e) {
            String what = String.valueOf(e.getOriginalMessage());
            if (what.startsWith("String value length") || what.startsWith("Name length")) {
                throw new StringTooLongException(limits.maxStringLength());
            }
            throw new MalformedFrameException(what, -1, e);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new MalformedFrameException(e.getOriginalMessage(), at == null ? -1 : at.getByteOffset(), e);
        } catch (IOException e) {
            throw new MalformedFrameException(e.toString(), -1, e);
        }
        if (bytesFed - messageStart > limits.maxMessageBytes()) {
            throw new FrameTooLargeException(limits.maxMessageBytes());
        }
    }

    private JsonNode accept(JsonToken token) throws IOException {
        if (tree.depth() == 0 && token != JsonToken.START_OBJECT) {
            throw new MalformedFrameException("top-level value must be a JSON object, found " + token,
                    parser.currentTokenLocation().getByteOffset(), null);
        }
        if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)
                && tree.depth() >= limits.maxDepth()) {
            throw new FrameTooDeepException(limits.maxDepth());
        }
        return tree.accept(token, parser);
    }

    private void fail(ChannelHandlerContext ctx, ProtocolException e) {
        failed = true;
        closeParser();
        LOG.debug("closing {} after protocol violation: {}", ctx.channel(), e.getMessage());
        ctx.fireExceptionCaught(e);
        ctx.close();
    }

    private void closeParser() {
        if (parser == null) {
            return;
        }
        try {
            parser.close();
        } catch (IOException e) {
            // Closing only returns buffers to Jackson's pool; nothing is left to clean up.
            LOG.trace("ignoring error while closing parser", e);
        } finally {
            parser = null;
        }
    }
}
