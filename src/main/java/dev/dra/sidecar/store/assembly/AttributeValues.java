package dev.dra.sidecar.store.assembly;

import dev.dra.sidecar.model.DeviceAttribute;
import dev.dra.sidecar.snapshot.AttributeValue;
import dev.dra.sidecar.snapshot.BodyEncoding;
import dev.dra.sidecar.snapshot.Served;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A device's attributes as {@link AttributeValue}s, made when looked up from the decoded attributes rather than held:
 * an unmodifiable view in the attributes' order.
 */
final class AttributeValues extends AbstractMap<String, AttributeValue> {

    private final Map<String, DeviceAttribute> attributes;
    private final String staleReason;

    AttributeValues(Map<String, DeviceAttribute> attributes, String staleReason) {
        this.attributes = attributes;
        this.staleReason = staleReason;
    }

    /** An attribute's value in both representations, encoded when asked for. */
    private static AttributeValue attribute(DeviceAttribute value, String staleReason) {
        DeviceAttribute present = value == null ? new DeviceAttribute(null, null, null, null, null, null, null, null) : value;
        return new AttributeValue(BodyEncoding.onDemand(() -> present, null, staleReason), Served.Available.onDemand(
                () -> present.textLines().stream().map(line -> line + "\n").collect(Collectors.joining())
                        .getBytes(StandardCharsets.UTF_8), null, staleReason));
    }

    @Override
    public AttributeValue get(Object key) {
        return attributes.containsKey(key) ? attribute(attributes.get(key), staleReason) : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return attributes.containsKey(key);
    }

    @Override
    public int size() {
        return attributes.size();
    }

    @Override
    public Set<Entry<String, AttributeValue>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, AttributeValue>> iterator() {
                Iterator<Entry<String, DeviceAttribute>> it = attributes.entrySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Entry<String, AttributeValue> next() {
                        Entry<String, DeviceAttribute> e = it.next();
                        return Map.entry(e.getKey(), attribute(e.getValue(), staleReason));
                    }
                };
            }

            @Override
            public int size() {
                return attributes.size();
            }
        };
    }
}
