#import <WebKit/WebKit.h>

@interface MotionBridge : NSObject <WKUIDelegate>
@end

@implementation MotionBridge
- (void)webView:(WKWebView *)webView requestDeviceOrientationAndMotionPermissionForOrigin:(WKSecurityOrigin *)origin initiatedByFrame:(WKFrameInfo *)frame decisionHandler:(void (^)(WKPermissionDecision))decisionHandler {
    decisionHandler(WKPermissionDecisionGrant);
}

- (void)clearBackgroundOf:(WKWebView *)webView {
    [webView setValue:@NO forKey:@"drawsBackground"];
}
@end
