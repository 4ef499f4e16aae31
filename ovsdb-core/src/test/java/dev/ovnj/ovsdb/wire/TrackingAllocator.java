package dev.ovnj.ovsdb.wire;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/** An allocator of unpooled heap buffers that keeps every buffer it gave out, so a test can check each was released. */
public final class TrackingAllocator extends AbstractByteBufAllocator {
    private final List<ByteBuf> allocated = new ArrayList<>();

    /** An allocator that has given out nothing yet. */
    public TrackingAllocator() {
        super(false);
    }

    /**
     * Every buffer given out so far.
     *
     * @return the buffers, in order
     */
    public List<ByteBuf> allocated() {
        return allocated;
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        ByteBuf b = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        allocated.add(b);
        return b;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return newHeapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }
}
