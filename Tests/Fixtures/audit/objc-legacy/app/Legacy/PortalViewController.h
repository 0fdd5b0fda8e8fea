#import <UIKit/UIKit.h>
#import <WebKit/WebKit.h>

extern NSString *const kLogHandlerName;

@interface PortalWebView : WKWebView
@end

@interface PortalViewController : UIViewController <WKScriptMessageHandler>
@property (nonatomic, strong) PortalWebView *webView;
@property (nonatomic, strong) UIWebView *legacyView;
@end
