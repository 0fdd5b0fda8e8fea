#import "PortalViewController.h"

#define BRIDGE_NAME @"native"
#define DEBUG_BRIDGE @"debugConsole"
NSString *const kLogHandlerName = @"consoleLog";

@implementation PortalWebView
@end

@implementation PortalViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    WKWebViewConfiguration *configuration = [[WKWebViewConfiguration alloc] init];
    WKUserContentController *controller = configuration.userContentController;
    [controller addScriptMessageHandler:self name:BRIDGE_NAME];
    [controller addScriptMessageHandler:self name:kLogHandlerName];
    [controller addScriptMessageHandler:self name:@"payments"];
#ifdef DEBUG
    [controller addScriptMessageHandler:self name:DEBUG_BRIDGE];
    self.webView.inspectable = YES;
#endif
    /*
    [controller addScriptMessageHandler:self name:@"commentedOut"];
    configuration.preferences.javaScriptCanOpenWindowsAutomatically = YES;
    */
    NSLog(@"evaluateJavaScript: failed, addScriptMessageHandler:name: too");
    configuration.preferences.javaScriptCanOpenWindowsAutomatically = YES;
    [configuration.preferences setFraudulentWebsiteWarningEnabled:NO];
    [configuration.preferences setValue:@YES forKey:@"allowUniversalAccessFromFileURLs"];
    self.webView = [[PortalWebView alloc] initWithFrame:self.view.bounds configuration:configuration];
    Class controllerClass = NSClassFromString(@"WKBrowsingContextController");
    (void)controllerClass;
}

- (void)open:(NSURL *)url {
    NSString *js = [NSString stringWithFormat:@"onDeepLink(\"%@\")", url.absoluteString];
    [self.webView evaluateJavaScript:js completionHandler:nil];
    [self.webView evaluateJavaScript:@"document.title" completionHandler:nil];
}

- (void)userContentController:(WKUserContentController *)userContentController didReceiveScriptMessage:(WKScriptMessage *)message {
    NSLog(@"%@", message.body);
}

@end
