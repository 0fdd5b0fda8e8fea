public enum WebPolicyKitPlaceholder {}
